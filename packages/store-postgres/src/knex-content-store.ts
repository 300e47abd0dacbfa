import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { checkContentKey, contentPieces, type ContentStore } from '@gateway/core';

/** 512 KiB: a Range read of a video seek fetches at most two of these; a row stays far below PostgreSQL's limits. */
export const DEFAULT_CHUNK_SIZE = 512 * 1024;
/** Chunks fetched per query while reading: bounds the memory of one download to a few chunks. */
const CHUNKS_PER_READ = 4;

interface ObjectRow {
  id: string;
  size: string | number;
  chunk_size: number;
}

/**
 * Media bytes in PostgreSQL (CONTENT_STORE=postgres), cut into fixed-size chunks (migration 013). A write streams its
 * chunks under an object with no key, then takes over the key in one transaction; a read fetches only the chunks its
 * byte range covers.
 */
export class KnexContentStore implements ContentStore {
  private readonly chunkSize: number;

  constructor(
    private readonly knex: Knex,
    opts: { chunkSize?: number } = {},
  ) {
    this.chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  }

  async put(key: string, source: NodeJS.ReadableStream | Uint8Array): Promise<{ size: number }> {
    checkContentKey(key);
    const pieces = contentPieces(source);
    const id = `obj_${randomBytes(12).toString('hex')}`;
    try {
      await this.knex('content_objects').insert({ id, key: null, size: null, chunk_size: this.chunkSize });
      const size = await this.writeChunks(id, { [Symbol.asyncIterator]: () => pieces });
      await this.knex.transaction(async (trx) => {
        // Two writers of one key take turns here, so the unique key never sees both.
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`content:${key}`]);
        await trx('content_objects').where({ key }).delete();
        await trx('content_objects').where({ id }).update({ key, size, written_at: trx.fn.now() });
      });
      return { size };
    } catch (e) {
      await pieces.return?.(); // stops (and destroys) a source we no longer read
      // ignored: the write's own error is rethrown below; a row left without its key is never read
      await this.knex('content_objects')
        .where({ id })
        .delete()
        .catch(() => undefined);
      throw e;
    }
  }

  /** Inserts full chunks as the bytes arrive: at most one chunk (plus one source buffer) is held in memory. */
  private async writeChunks(id: string, source: AsyncIterable<Buffer>): Promise<number> {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let idx = 0;
    let size = 0;
    const flush = async (data: Buffer) => {
      await this.knex('content_chunks').insert({ object_id: id, idx: idx++, data });
    };
    for await (const piece of source) {
      const buf = piece;
      size += buf.length;
      pending.push(buf);
      pendingBytes += buf.length;
      while (pendingBytes >= this.chunkSize) {
        const all = Buffer.concat(pending);
        await flush(all.subarray(0, this.chunkSize));
        const rest = all.subarray(this.chunkSize);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    if (pendingBytes > 0) await flush(Buffer.concat(pending));
    return size;
  }

  private async find(key: string): Promise<{ id: string; size: number; chunkSize: number } | null> {
    const row = (await this.knex('content_objects')
      .where({ key: checkContentKey(key) })
      .first('id', 'size', 'chunk_size')) as ObjectRow | undefined;
    return row ? { id: row.id, size: Number(row.size), chunkSize: row.chunk_size } : null;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const o = await this.find(key);
    return o ? { size: o.size } : null;
  }

  open(key: string, range?: { start: number; end: number }): NodeJS.ReadableStream {
    return Readable.from(this.read(key, range));
  }

  private async *read(key: string, range?: { start: number; end: number }): AsyncGenerator<Buffer> {
    const o = await this.find(key);
    if (!o) throw new Error(`no content ${key}`);
    const start = range?.start ?? 0;
    const end = Math.min(range?.end ?? o.size - 1, o.size - 1);
    if (start > end) return;
    const last = Math.floor(end / o.chunkSize);
    for (let from = Math.floor(start / o.chunkSize); from <= last; from += CHUNKS_PER_READ) {
      const to = Math.min(from + CHUNKS_PER_READ - 1, last);
      const rows = (await this.knex('content_chunks')
        .where({ object_id: o.id })
        .whereBetween('idx', [from, to])
        .orderBy('idx')
        .select('idx', 'data')) as Array<{ idx: number; data: Buffer }>;
      // the object was replaced or deleted while being read
      if (rows.length !== to - from + 1) throw new Error(`content ${key} changed while being read`);
      for (const row of rows) {
        const base = row.idx * o.chunkSize;
        const data = Buffer.from(row.data);
        yield data.subarray(Math.max(0, start - base), Math.min(data.length, end - base + 1));
      }
    }
  }

  async delete(key: string): Promise<void> {
    await this.knex('content_objects')
      .where({ key: checkContentKey(key) })
      .delete();
  }

  /** Objects written before `cutoff`, and writes abandoned by a crash (no key yet) started before it. */
  async deleteOlderThan(cutoff: Date, except: readonly string[] = []): Promise<number> {
    const query = this.knex('content_objects').where('written_at', '<', cutoff);
    // a keyless row (a write that never finished) is never spared
    for (const x of except) query.andWhereRaw("coalesce(key, '') not like ?", [`${x.replace(/[\\%_]/g, '\\$&')}%`]);
    const gone = (await query.delete().returning('key')) as Array<{
      key: string | null;
    }>;
    return gone.filter((r) => r.key !== null).length;
  }
}
