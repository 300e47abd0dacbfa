import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { ContentStore } from '@gateway/core';

export interface ContentStoreHarness {
  store: ContentStore;
  /** makes `key` look written at `at` (the suite's expiry tests run only when the store has deleteOlderThan) */
  backdate?(key: string, at: Date): Promise<void>;
  done(): Promise<void>;
}

const readAll = async (s: NodeJS.ReadableStream): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};

/** A stream that delivers `data` in uneven pieces, as an upstream download would. */
const trickle = (data: Buffer, piece = 777): Readable => {
  const parts: Buffer[] = [];
  for (let i = 0; i < data.length; i += piece) parts.push(data.subarray(i, i + piece));
  return Readable.from(parts);
};

/**
 * Every ContentStore backend runs this suite (file, PostgreSQL, S3). `bigSize` should span several of the backend's
 * chunks or parts, so Range reads cross their boundaries.
 */
export function describeContentStoreConformance(
  name: string,
  make: () => Promise<ContentStoreHarness>,
  opts: { bigSize?: number } = {},
): void {
  describe(`ContentStore conformance: ${name}`, () => {
    let h: ContentStoreHarness;
    let store: ContentStore;
    const big = randomBytes(opts.bigSize ?? 300_000);
    beforeAll(async () => {
      h = await make();
      store = h.store;
      await store.put('conf/big.mp4', trickle(big));
    });
    afterAll(async () => h.done());

    it('writes from a stream or from bytes; stat gives the size; reads give the bytes back', async () => {
      expect(await store.put('conf/a.mp4', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
      expect(await store.put('conf/b.jpg', new Uint8Array([1, 2, 3]))).toEqual({ size: 3 });
      expect(await store.stat('conf/a.mp4')).toEqual({ size: 11 });
      expect((await readAll(store.open('conf/a.mp4'))).toString()).toBe('hello world');
      expect([...(await readAll(store.open('conf/b.jpg')))]).toEqual([1, 2, 3]);
      expect(await store.stat('conf/big.mp4')).toEqual({ size: big.length });
      expect((await readAll(store.open('conf/big.mp4'))).equals(big)).toBe(true);
    });

    it('an empty object has size 0 and reads empty', async () => {
      expect(await store.put('conf/empty.bin', new Uint8Array(0))).toEqual({ size: 0 });
      expect(await store.stat('conf/empty.bin')).toEqual({ size: 0 });
      expect((await readAll(store.open('conf/empty.bin'))).length).toBe(0);
    });

    it('Range reads: the start, the middle across boundaries, a suffix, one byte, past the end', async () => {
      const n = big.length;
      const range = async (start: number, end: number) => readAll(store.open('conf/big.mp4', { start, end }));
      expect((await range(0, 99)).equals(big.subarray(0, 100))).toBe(true);
      const mid = Math.floor(n / 3);
      expect((await range(mid - 5000, mid + 70_000)).equals(big.subarray(mid - 5000, mid + 70_001))).toBe(true);
      expect((await range(n - 500, n - 1)).equals(big.subarray(n - 500))).toBe(true);
      expect((await range(12_345, 12_345)).equals(big.subarray(12_345, 12_346))).toBe(true);
      // an end past the object stops at its last byte
      expect((await range(n - 10, n + 10_000)).equals(big.subarray(n - 10))).toBe(true);
    });

    it('overwriting replaces the whole object', async () => {
      await store.put('conf/over.mp4', Buffer.from('first version, longer'));
      expect(await store.put('conf/over.mp4', Buffer.from('second'))).toEqual({ size: 6 });
      expect(await store.stat('conf/over.mp4')).toEqual({ size: 6 });
      expect((await readAll(store.open('conf/over.mp4'))).toString()).toBe('second');
    });

    it('a source that fails mid-way leaves nothing new behind and keeps the previous version', async () => {
      await store.put('conf/kept.mp4', Buffer.from('previous'));
      for (const key of ['conf/kept.mp4', 'conf/never.mp4']) {
        const src = new PassThrough();
        const put = store.put(key, src);
        src.write(randomBytes(5000));
        setImmediate(() => src.destroy(new Error('upstream broke')));
        await expect(put).rejects.toThrow('upstream broke');
      }
      expect((await readAll(store.open('conf/kept.mp4'))).toString()).toBe('previous');
      expect(await store.stat('conf/never.mp4')).toBeNull();
    });

    it('a missing key: stat is null, open fails, delete is fine', async () => {
      expect(await store.stat('conf/missing.mp4')).toBeNull();
      await expect(readAll(store.open('conf/missing.mp4'))).rejects.toThrow();
      await expect(store.delete('conf/missing.mp4')).resolves.toBeUndefined();
    });

    it('deletes', async () => {
      await store.put('conf/gone.mp4', Buffer.from('x'));
      await store.delete('conf/gone.mp4');
      expect(await store.stat('conf/gone.mp4')).toBeNull();
      await expect(readAll(store.open('conf/gone.mp4'))).rejects.toThrow();
    });

    it('refuses keys that could escape the root or the prefix', async () => {
      for (const bad of ['../etc/passwd', '/abs.mp4', 'videos/../../x', 'a//b', '', 'a b.mp4']) {
        await expect(store.stat(bad)).rejects.toThrow('Invalid content key');
        await expect(store.put(bad, Buffer.from('x'))).rejects.toThrow('Invalid content key');
      }
    });

    it('concurrent writes: distinct keys all land; one key ends as exactly one of its writes', async () => {
      const bodies = Array.from({ length: 4 }, () => randomBytes(20_000));
      await Promise.all(bodies.map((b, i) => store.put(`conf/par-${i}.mp4`, trickle(b, 3000))));
      for (const [i, b] of bodies.entries()) expect((await readAll(store.open(`conf/par-${i}.mp4`))).equals(b)).toBe(true);
      await Promise.all(bodies.map((b) => store.put('conf/same.mp4', trickle(b, 3000))));
      const got = await readAll(store.open('conf/same.mp4'));
      expect(bodies.some((b) => b.equals(got))).toBe(true);
      expect(await store.stat('conf/same.mp4')).toEqual({ size: 20_000 });
    });

    it('deleteOlderThan removes only objects written before the cutoff', async () => {
      if (!store.deleteOlderThan || !h.backdate) return expect(store.deleteOlderThan).toBeUndefined();
      await store.put('conf/old.mp4', Buffer.from('o'));
      await store.put('conf/new.mp4', Buffer.from('n'));
      const day = 86_400_000;
      await h.backdate('conf/old.mp4', new Date(Date.now() - 8 * day));
      expect(await store.deleteOlderThan(new Date(Date.now() - 7 * day))).toBe(1);
      expect(await store.stat('conf/old.mp4')).toBeNull();
      expect(await store.stat('conf/new.mp4')).toEqual({ size: 1 });
    });

    it('deleteOlderThan spares keys under the prefixes it is told to keep', async () => {
      if (!store.deleteOlderThan || !h.backdate) return expect(store.deleteOlderThan).toBeUndefined();
      const day = 86_400_000;
      for (const key of ['kept/old.jsonl', 'conf/old-too.mp4']) {
        await store.put(key, Buffer.from('o'));
        await h.backdate(key, new Date(Date.now() - 8 * day));
      }
      expect(await store.deleteOlderThan(new Date(Date.now() - 7 * day), ['kept/'])).toBe(1);
      expect(await store.stat('kept/old.jsonl')).toEqual({ size: 1 });
      expect(await store.stat('conf/old-too.mp4')).toBeNull();
    });
  });
}
