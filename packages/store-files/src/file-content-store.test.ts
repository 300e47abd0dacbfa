import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { FileContentStore } from './file-content-store';

const text = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks).toString();
};

let dir: string;
let store: FileContentStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'content-'));
  store = new FileContentStore(path.join(dir, 'content'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileContentStore', () => {
  it('writes from a stream or bytes, stats and reads back, whole or by range', async () => {
    expect(await store.put('videos/a.mp4', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    await store.put('videos/b.jpg', new Uint8Array([1, 2, 3]));
    expect(await store.stat('videos/a.mp4')).toEqual({ size: 11 });
    expect(await text(store.open('videos/a.mp4'))).toBe('hello world');
    expect(await text(store.open('videos/a.mp4', { start: 6, end: 10 }))).toBe('world');
    expect(await store.stat('videos/b.jpg')).toEqual({ size: 3 });
  });

  it('overwrites atomically and leaves no partial file behind', async () => {
    await store.put('videos/a.mp4', Buffer.from('one'));
    await store.put('videos/a.mp4', Buffer.from('second'));
    expect(await text(store.open('videos/a.mp4'))).toBe('second');
    expect(readdirSync(path.join(dir, 'content', 'videos'))).toEqual(['a.mp4']);
  });

  it('a failing source leaves neither the file nor a partial', async () => {
    const src = new PassThrough();
    const put = store.put('videos/c.mp4', src);
    src.write('some bytes');
    setImmediate(() => src.destroy(new Error('upstream broke')));
    await expect(put).rejects.toThrow('upstream broke');
    expect(await store.stat('videos/c.mp4')).toBeNull();
    expect(readdirSync(path.join(dir, 'content', 'videos'))).toEqual([]);
  });

  it('deletes (missing keys are fine) and refuses keys that could escape the root', async () => {
    await store.put('videos/a.mp4', Buffer.from('x'));
    await store.delete('videos/a.mp4');
    await store.delete('videos/a.mp4');
    expect(await store.stat('videos/a.mp4')).toBeNull();
    for (const bad of ['../etc/passwd', '/abs.mp4', 'videos/../../x', 'a//b', '']) {
      await expect(store.stat(bad)).rejects.toThrow('Invalid content key');
    }
  });

  it('deleteOlderThan removes only files written before the cutoff', async () => {
    await store.put('videos/old.mp4', Buffer.from('o'));
    await store.put('videos/new.mp4', Buffer.from('n'));
    const old = new Date(Date.now() - 8 * 86_400_000);
    utimesSync(path.join(dir, 'content', 'videos', 'old.mp4'), old, old);
    expect(await store.deleteOlderThan(new Date(Date.now() - 7 * 86_400_000))).toBe(1);
    expect(await store.stat('videos/old.mp4')).toBeNull();
    expect(await store.stat('videos/new.mp4')).toEqual({ size: 1 });
    expect(await new FileContentStore(path.join(dir, 'nothing-here')).deleteOlderThan(new Date())).toBe(0);
  });
});
