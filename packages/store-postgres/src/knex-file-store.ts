import type { Knex } from 'knex';
import type { FileListQuery, FilePurpose, FileStore, StoredFile } from '@gateway/core';
import { date } from './row-values';

function toStored(r: Record<string, any>): StoredFile {
  return {
    id: r.id,
    accountId: r.account_id,
    filename: r.filename,
    purpose: r.purpose as FilePurpose,
    bytes: Number(r.bytes),
    createdAt: new Date(r.created_at),
    expiresAt: date(r.expires_at),
  };
}

/**
 * File metadata (the `files` table, migration 036). Every read and delete filters on account_id, so one account can
 * never see or delete another's files; ids sort by creation, so lists page by id.
 */
export class KnexFileStore implements FileStore {
  constructor(private readonly db: Knex) {}

  async insert(f: StoredFile): Promise<void> {
    await this.db('files').insert({
      id: f.id,
      account_id: f.accountId,
      filename: f.filename,
      purpose: f.purpose,
      bytes: f.bytes,
      created_at: f.createdAt,
      expires_at: f.expiresAt,
    });
  }

  async find(accountId: string, id: string): Promise<StoredFile | null> {
    const r = await this.db('files').where({ id, account_id: accountId }).first();
    return r ? toStored(r) : null;
  }

  async list(accountId: string, q: FileListQuery): Promise<StoredFile[]> {
    const rows = await this.db('files')
      .where({ account_id: accountId })
      .andWhere((w) => void w.whereNull('expires_at').orWhere('expires_at', '>', q.now))
      .modify((b) => {
        if (q.purpose) b.andWhere('purpose', q.purpose);
        if (q.after) b.andWhere('id', q.order === 'asc' ? '>' : '<', q.after);
      })
      .orderBy('id', q.order)
      .limit(q.limit);
    return rows.map(toStored);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    // returning() rather than the affected-row count: the PGlite client does not report counts for deletes.
    const rows = await this.db('files').where({ id, account_id: accountId }).delete().returning('id');
    return rows.length > 0;
  }

  async expired(now: Date, limit: number): Promise<StoredFile[]> {
    const rows = await this.db('files').whereNotNull('expires_at').andWhere('expires_at', '<=', now).orderBy('expires_at').limit(limit);
    return rows.map(toStored);
  }
}
