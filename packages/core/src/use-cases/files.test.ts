import { Readable } from 'node:stream';
import { InMemoryContentStore } from '@gateway/testkit';
import { fileContentKey, isExpired, type StoredFile } from '../files';
import type { FileListQuery, FileStore } from '../ports/file-store.port';
import { Files, fileTooLarge } from './files';

/** The FileStore contract in memory: by account, ids in creation order, expired rows left out of lists. */
class MemoryFileStore implements FileStore {
  readonly rows = new Map<string, StoredFile>();
  failInserts = false;
  async insert(f: StoredFile) {
    if (this.failInserts) throw new Error('database down');
    this.rows.set(f.id, f);
  }
  async find(accountId: string, id: string) {
    const f = this.rows.get(id);
    return f && f.accountId === accountId ? f : null;
  }
  async list(accountId: string, q: FileListQuery) {
    const asc = [...this.rows.values()]
      .filter((f) => f.accountId === accountId && !isExpired(f, q.now) && (!q.purpose || f.purpose === q.purpose))
      .sort((a, b) => a.id.localeCompare(b.id));
    const ordered = q.order === 'asc' ? asc : asc.reverse();
    const after = q.after;
    return ordered.filter((f) => !after || (q.order === 'asc' ? f.id > after : f.id < after)).slice(0, q.limit);
  }
  async delete(accountId: string, id: string) {
    return (await this.find(accountId, id)) !== null && this.rows.delete(id);
  }
  async expired(now: Date, limit: number) {
    return [...this.rows.values()].filter((f) => isExpired(f, now)).slice(0, limit);
  }
}

const alpha = { accountId: 'alpha' };
const beta = { accountId: 'beta' };
const text = (s: string) => Buffer.from(s);

function setup(uploadBytes?: number) {
  let now = new Date('2026-03-01T00:00:00Z');
  const files = new MemoryFileStore();
  const content = new InMemoryContentStore();
  const useCase = new Files({ files, content, now: () => now, uploadBytes });
  const tick = (ms: number) => (now = new Date(now.getTime() + ms));
  return { files, content, useCase, tick };
}

describe('Files', () => {
  it('stores an upload: metadata by account, bytes under files/<id>', async () => {
    const { useCase, content } = setup();
    const f = await useCase.upload(alpha, { filename: 'in.jsonl', source: text('{"a":1}\n'), fields: { purpose: 'batch' } });
    expect(f).toMatchObject({ accountId: 'alpha', filename: 'in.jsonl', purpose: 'batch', bytes: 8 });
    expect(f.expiresAt!.getTime() - f.createdAt.getTime()).toBe(30 * 86_400_000);
    expect(content.objects.get(fileContentKey(f.id))!.bytes.toString()).toBe('{"a":1}\n');
    expect(await useCase.get(alpha, f.id)).toEqual(f);
  });

  it('fields sent after the file are awaited while the bytes stream to the store', async () => {
    const { useCase } = setup();
    let send!: (v: { purpose: unknown; expiresAfterSeconds?: number }) => void;
    const fields = new Promise<{ purpose: unknown; expiresAfterSeconds?: number }>((r) => (send = r));
    const pending = useCase.upload(alpha, { filename: 'a.txt', source: Readable.from([text('ab'), text('c')]), fields });
    send({ purpose: 'user_data', expiresAfterSeconds: 3600 });
    const f = await pending;
    expect(f).toMatchObject({ purpose: 'user_data', bytes: 3 });
    expect(f.expiresAt!.getTime() - f.createdAt.getTime()).toBe(3_600_000);
  });

  it('another account’s file is a missing file, everywhere, with the same message', async () => {
    const { useCase } = setup();
    const f = await useCase.upload(alpha, { filename: 'a.txt', source: text('x'), fields: { purpose: 'user_data' } });
    const missing = { status: 404, message: `No such File object: ${f.id}` };
    await expect(useCase.get(beta, f.id)).rejects.toMatchObject(missing);
    await expect(useCase.content(beta, f.id)).rejects.toMatchObject(missing);
    await expect(useCase.delete(beta, f.id)).rejects.toMatchObject(missing);
    await expect(useCase.get(alpha, 'file-none')).rejects.toMatchObject({ status: 404, message: 'No such File object: file-none' });
    expect((await useCase.list(beta, { limit: 10, order: 'desc' })).files).toEqual([]);
    expect(await useCase.get(alpha, f.id)).toEqual(f);
  });

  it('an expired file is missing at once and the sweep deletes its row and bytes', async () => {
    const { useCase, files, content, tick } = setup();
    const short = await useCase.upload(alpha, {
      filename: 'a',
      source: text('x'),
      fields: { purpose: 'user_data', expiresAfterSeconds: 3600 },
    });
    const kept = await useCase.upload(alpha, { filename: 'b', source: text('y'), fields: { purpose: 'user_data' } });
    tick(3_600_000);
    await expect(useCase.get(alpha, short.id)).rejects.toMatchObject({ status: 404 });
    expect((await useCase.list(alpha, { limit: 10, order: 'desc' })).files.map((f) => f.id)).toEqual([kept.id]);
    expect(await useCase.sweepExpired()).toBe(1);
    expect(files.rows.has(short.id)).toBe(false);
    expect(content.objects.has(fileContentKey(short.id))).toBe(false);
    expect(content.objects.has(fileContentKey(kept.id))).toBe(true);
    expect(await useCase.sweepExpired()).toBe(0);
  });

  it('lists by id cursor, newest first by default, with has_more, and filters by purpose', async () => {
    const { useCase, tick } = setup();
    const made: StoredFile[] = [];
    for (const purpose of ['batch', 'user_data', 'batch', 'batch', 'user_data']) {
      made.push(await useCase.upload(alpha, { filename: 'f', source: text('x'), fields: { purpose } }));
      tick(1);
    }
    const ids = made.map((f) => f.id);
    const first = await useCase.list(alpha, { limit: 2, order: 'desc' });
    expect(first).toMatchObject({ hasMore: true });
    expect(first.files.map((f) => f.id)).toEqual([ids[4], ids[3]]);
    const second = await useCase.list(alpha, { limit: 2, order: 'desc', after: ids[3] });
    expect(second.files.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    const last = await useCase.list(alpha, { limit: 2, order: 'desc', after: ids[1] });
    expect(last).toMatchObject({ hasMore: false });
    expect(last.files.map((f) => f.id)).toEqual([ids[0]]);
    expect((await useCase.list(alpha, { limit: 10, order: 'asc' })).files.map((f) => f.id)).toEqual(ids);
    const batches = await useCase.list(alpha, { limit: 10, order: 'asc', purpose: 'batch' });
    expect(batches.files.map((f) => f.id)).toEqual([ids[0], ids[2], ids[3]]);
  });

  it('refuses an upload past the limit and leaves nothing behind', async () => {
    const { useCase, files, content } = setup(4);
    await expect(useCase.upload(alpha, { filename: 'a', source: text('12345'), fields: { purpose: 'batch' } })).rejects.toEqual(
      fileTooLarge(4),
    );
    expect(files.rows.size).toBe(0);
    expect(content.objects.size).toBe(0);
    expect((await useCase.upload(alpha, { filename: 'a', source: text('1234'), fields: { purpose: 'batch' } })).bytes).toBe(4);
  });

  it('a refused purpose, a failed stream or a failed insert leaves nothing behind', async () => {
    const { useCase, files, content } = setup();
    const late = Promise.resolve({ purpose: 'fine-tune' });
    await expect(useCase.upload(alpha, { filename: 'a', source: text('x'), fields: late })).rejects.toMatchObject({
      code: 'invalid_purpose',
    });
    const broken = new Readable({ read() {} });
    broken.push('partial');
    setImmediate(() => broken.destroy(new Error('client went away')));
    await expect(useCase.upload(alpha, { filename: 'a', source: broken, fields: { purpose: 'batch' } })).rejects.toThrow(
      'client went away',
    );
    files.failInserts = true;
    await expect(useCase.upload(alpha, { filename: 'a', source: text('x'), fields: { purpose: 'batch' } })).rejects.toThrow(
      'database down',
    );
    expect(files.rows.size).toBe(0);
    expect(content.objects.size).toBe(0);
  });

  it('refuses a purpose given up front before storing anything', async () => {
    const { useCase, content } = setup();
    const put = jest.spyOn(content, 'put');
    await expect(useCase.upload(alpha, { filename: 'a', source: text('x'), fields: { purpose: 'vision' } })).rejects.toMatchObject({
      status: 400,
      param: 'purpose',
    });
    expect(put).not.toHaveBeenCalled();
  });

  it('write: a batch output file for an account, beyond the upload limit, read back as content', async () => {
    const { useCase } = setup(2);
    const f = await useCase.write(alpha, { filename: 'batch_1_output.jsonl', purpose: 'batch_output', source: text('line\n') });
    expect(f).toMatchObject({ purpose: 'batch_output', bytes: 5 });
    const c = await useCase.content(alpha, f.id);
    const chunks: Buffer[] = [];
    for await (const piece of c.open() as AsyncIterable<Buffer>) chunks.push(piece);
    expect(Buffer.concat(chunks).toString()).toBe('line\n');
    expect(c.size).toBe(5);
  });

  it('delete removes row and bytes once', async () => {
    const { useCase, files, content } = setup();
    const f = await useCase.upload(alpha, { filename: 'a', source: text('x'), fields: { purpose: 'user_data' } });
    expect((await useCase.delete(alpha, f.id)).id).toBe(f.id);
    expect(files.rows.size + content.objects.size).toBe(0);
    await expect(useCase.delete(alpha, f.id)).rejects.toMatchObject({ status: 404 });
  });
});
