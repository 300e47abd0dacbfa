import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { checkContentKey, type ContentStore } from '@gateway/core';

const TMP_SUFFIX = '.partial';

/**
 * Media bytes as files under one root (DATA_DIR/content). Writes go to a temporary file that is
 * renamed into place, so a reader never sees half a file and a crash leaves only a `.partial`.
 */
export class FileContentStore implements ContentStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private file(key: string): string {
    if (key.endsWith(TMP_SUFFIX)) throw new Error(`Invalid content key ${JSON.stringify(key)}`);
    return path.join(this.root, checkContentKey(key));
  }

  async put(key: string, source: NodeJS.ReadableStream | Uint8Array): Promise<{ size: number }> {
    const target = this.file(key);
    const input = source instanceof Uint8Array ? Readable.from([Buffer.from(source)]) : source;
    // Listen at once: the source may fail while the directory is being made, before pipeline listens.
    let early: unknown;
    const onEarly = (e: unknown) => (early ??= e);
    input.on('error', onEarly);
    const tmp = `${target}.${randomBytes(6).toString('hex')}${TMP_SUFFIX}`;
    try {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await pipeline(input, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await rename(tmp, target);
    } catch (e) {
      await rm(tmp, { force: true });
      throw early ?? e;
    } finally {
      input.removeListener('error', onEarly);
    }
    return { size: (await stat(target)).size };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.file(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  open(key: string, range?: { start: number; end: number }): NodeJS.ReadableStream {
    return createReadStream(this.file(key), range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  /**
   * Retention safety net: removes files (and leftover partial writes, spared or not) last modified before `cutoff`,
   * except those under the `except` prefixes.
   */
  async deleteOlderThan(cutoff: Date, except: readonly string[] = []): Promise<number> {
    const spared = (p: string) =>
      !p.endsWith(TMP_SUFFIX) && except.some((x) => path.relative(this.root, p).split(path.sep).join('/').startsWith(x));
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const ent of entries) {
        const p = path.join(dir, ent.name);
        if (ent.isDirectory()) await walk(p);
        else if (ent.isFile() && !spared(p) && (await stat(p)).mtime < cutoff) {
          await rm(p, { force: true });
          removed++;
        }
      }
    };
    await walk(this.root);
    return removed;
  }
}
