import { Readable } from 'node:stream';
import type { ContentStore } from '@gateway/core';

/** ContentStore in memory; `failPuts` makes the next writes fail (to test retries). */
export class InMemoryContentStore implements ContentStore {
  readonly objects = new Map<string, { bytes: Buffer; writtenAt: Date }>();
  failPuts = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async put(key: string, source: NodeJS.ReadableStream | Uint8Array): Promise<{ size: number }> {
    let bytes: Buffer;
    if (source instanceof Uint8Array) bytes = Buffer.from(source);
    else {
      const chunks: Buffer[] = [];
      for await (const c of source as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(c));
      bytes = Buffer.concat(chunks);
    }
    if (this.failPuts > 0) {
      this.failPuts--;
      throw new Error('simulated content store failure');
    }
    this.objects.set(key, { bytes, writtenAt: new Date(this.now()) });
    return { size: bytes.length };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const o = this.objects.get(key);
    return o ? { size: o.bytes.length } : null;
  }

  open(key: string, range?: { start: number; end: number }): NodeJS.ReadableStream {
    const o = this.objects.get(key);
    if (!o)
      return new Readable({
        read() {
          this.destroy(new Error(`no content ${key}`));
        },
      });
    return Readable.from([range ? o.bytes.subarray(range.start, range.end + 1) : o.bytes]);
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  async deleteOlderThan(cutoff: Date, except: readonly string[] = []): Promise<number> {
    let n = 0;
    for (const [k, o] of this.objects) if (o.writtenAt < cutoff && !except.some((x) => k.startsWith(x)) && this.objects.delete(k)) n++;
    return n;
  }
}
