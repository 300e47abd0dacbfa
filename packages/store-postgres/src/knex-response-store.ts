import type { Knex } from 'knex';
import type { ResponseStore, StoredConversation, StoredResponse } from '@gateway/core';

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

function toStored(r: Record<string, any>): StoredResponse {
  return {
    id: r.id,
    accountId: r.account_id,
    model: r.model,
    previousResponseId: r.previous_response_id ?? null,
    createdAt: new Date(r.created_at),
    document: json<Record<string, unknown>>(r.document),
    conversation: json<StoredConversation>(r.conversation),
  };
}

/** Every query filters on account_id, so one account can never read or delete another's responses. */
export class KnexResponseStore implements ResponseStore {
  constructor(private readonly db: Knex) {}

  async save(r: StoredResponse): Promise<void> {
    await this.db('responses').insert({
      id: r.id,
      account_id: r.accountId,
      model: r.model,
      previous_response_id: r.previousResponseId,
      document: JSON.stringify(r.document),
      conversation: JSON.stringify(r.conversation),
      created_at: r.createdAt,
    });
  }

  async findForAccount(accountId: string, id: string): Promise<StoredResponse | null> {
    const r = await this.db('responses').where({ id, account_id: accountId }).first();
    return r ? toStored(r) : null;
  }

  async deleteForAccount(accountId: string, id: string): Promise<boolean> {
    // returning() rather than the affected-row count: the PGlite client does not report counts for deletes.
    const rows = await this.db('responses').where({ id, account_id: accountId }).delete().returning('id');
    return rows.length > 0;
  }

  /** Deletes responses created before the cutoff, every account's, `batch` rows per statement; returns how many. */
  async purgeCreatedBefore(cutoff: Date, batch = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const oldest = this.db('responses').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(batch);
      const rows = await this.db('responses').whereIn('id', oldest).delete().returning('id');
      total += rows.length;
      if (rows.length < batch) return total;
    }
  }
}
