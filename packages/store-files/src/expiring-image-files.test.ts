import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExpiringImageFiles, IMAGE_URL_TTL_MS } from './expiring-image-files';

let dir: string;
let now: number;
let files: ExpiringImageFiles;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'img-files-'));
  now = Date.parse('2030-01-01T00:00:00Z');
  files = new ExpiringImageFiles(path.join(dir, 'images'), { now: () => now });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ExpiringImageFiles', () => {
  it('saves under an unguessable name and serves it until the TTL passes', async () => {
    const { name, expiresAt } = await files.save(Uint8Array.from([1, 2, 3]), 'image/jpeg');
    expect(name).toMatch(/^img[a-z0-9]{32}\.jpeg$/);
    expect(expiresAt).toBe(now + IMAGE_URL_TTL_MS);
    now += IMAGE_URL_TTL_MS - 1;
    expect(await files.open(name)).toMatchObject({ mediaType: 'image/jpeg', data: Buffer.from([1, 2, 3]) });
    now += 1;
    expect(await files.open(name)).toBeNull();
    expect(readdirSync(path.join(dir, 'images'))).toEqual([]);
  });

  it('two saves never share a name', async () => {
    const a = await files.save(Uint8Array.from([1]), 'image/png');
    const b = await files.save(Uint8Array.from([1]), 'image/png');
    expect(a.name).not.toBe(b.name);
  });

  it('refuses malformed names without touching the disk', async () => {
    for (const name of ['../secret.png', 'img.png', 'IMGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png', `img${'a'.repeat(32)}.gif`]) {
      expect(await files.open(name)).toBeNull();
    }
  });

  it('sweep removes only expired files', async () => {
    const old = await files.save(Uint8Array.from([1]), 'image/png');
    now += IMAGE_URL_TTL_MS / 2;
    const fresh = await files.save(Uint8Array.from([2]), 'image/png');
    now += IMAGE_URL_TTL_MS / 2;
    expect(await files.sweep()).toBe(1);
    expect(readdirSync(path.join(dir, 'images'))).toEqual([fresh.name]);
    expect(old.name).not.toBe(fresh.name);
  });

  it('the TTL is configurable', async () => {
    const short = new ExpiringImageFiles(path.join(dir, 'images'), { now: () => now, ttlMs: 1000 });
    const { name } = await short.save(Uint8Array.from([1]), 'image/png');
    now += 1000;
    expect(await short.open(name)).toBeNull();
  });
});
