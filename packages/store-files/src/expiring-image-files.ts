import { mkdir, readdir, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newId, type GeneratedImageStore, type StoredImage } from '@gateway/core';

/** How long an image URL works: one hour, like the providers' own signed URLs. */
export const IMAGE_URL_TTL_MS = 60 * 60 * 1000;

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };
const TYPE = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
/** `img` + 32 random [a-z0-9] (~165 bits): the name is the credential. */
const NAME = /^img[a-z0-9]{32}\.(png|jpeg|webp)$/;

/**
 * Generated images served by URL: files under `<dir>/<name>`, expiring `ttlMs` after they were written.
 * The write time is the file's mtime, set from the injected clock, so expiry needs no index.
 */
export class ExpiringImageFiles implements GeneratedImageStore {
  readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly dir: string,
    opts: { ttlMs?: number; now?: () => number } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? IMAGE_URL_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  async save(data: Uint8Array, mediaType: string): Promise<{ name: string; expiresAt: number }> {
    const ext = EXT[mediaType] ?? 'png';
    const name = `${newId('img', 16)}.${ext}`;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, name);
    await writeFile(file, data, { flag: 'wx', mode: 0o600 });
    const written = this.now();
    await utimes(file, written / 1000, written / 1000);
    return { name, expiresAt: written + this.ttlMs };
  }

  /** The image, or null when the name is malformed, unknown or expired (an expired file is removed). */
  async open(name: string): Promise<StoredImage | null> {
    const m = NAME.exec(name);
    if (!m) return null;
    const file = path.join(this.dir, name);
    try {
      const expiresAt = (await stat(file)).mtimeMs + this.ttlMs;
      if (expiresAt <= this.now()) {
        await unlink(file).catch(() => undefined);
        return null;
      }
      return { data: await readFile(file), mediaType: TYPE[m[1] as keyof typeof TYPE], expiresAt };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Removes expired files; returns how many. */
  async sweep(): Promise<number> {
    let removed = 0;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!NAME.test(name)) continue;
      const file = path.join(this.dir, name);
      const s = await stat(file).catch(() => null);
      if (s && s.mtimeMs + this.ttlMs <= this.now()) {
        await unlink(file).catch(() => undefined);
        removed++;
      }
    }
    return removed;
  }
}
