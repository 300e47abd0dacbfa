import { newId, type ContentStore, type GeneratedImageStore, type StoredImage } from '@gateway/core';
import { IMAGE_URL_TTL_MS } from './expiring-image-files';

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };
const TYPE = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
/** `img` + 32 random [a-z0-9] (the credential) + `-` + the expiry in base-36 ms: changing the expiry changes the key. */
const NAME = /^img[a-z0-9]{32}-([a-z0-9]{1,12})\.(png|jpeg|webp)$/;

/**
 * Generated image URLs kept in the gateway's content store (CONTENT_STORE=postgres or s3://), under `images/`, so any
 * replica serves them. The expiry is part of the name, so a read refuses an expired image without asking the store;
 * the bytes go with the content store's retention sweep (`deleteOlderThan`, run by the video worker).
 */
export class ContentImageStore implements GeneratedImageStore {
  readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly content: ContentStore,
    opts: { ttlMs?: number; now?: () => number } = {},
  ) {
    this.ttlMs = opts.ttlMs ?? IMAGE_URL_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  async save(data: Uint8Array, mediaType: string): Promise<{ name: string; expiresAt: number }> {
    const expiresAt = this.now() + this.ttlMs;
    const name = `${newId('img', 16)}-${expiresAt.toString(36)}.${EXT[mediaType] ?? 'png'}`;
    await this.content.put(`images/${name}`, data);
    return { name, expiresAt };
  }

  async open(name: string): Promise<StoredImage | null> {
    const m = NAME.exec(name);
    if (!m) return null;
    const expiresAt = parseInt(m[1]!, 36);
    const key = `images/${name}`;
    if (expiresAt <= this.now()) {
      await this.content.delete(key).catch(() => undefined);
      return null;
    }
    if (!(await this.content.stat(key))) return null;
    const chunks: Buffer[] = [];
    for await (const c of this.content.open(key) as AsyncIterable<Buffer>) chunks.push(c);
    return { data: Buffer.concat(chunks), mediaType: TYPE[m[2] as keyof typeof TYPE], expiresAt };
  }

  /** Nothing to walk: reads refuse expired names, and the content store's retention removes their bytes. */
  async sweep(): Promise<number> {
    return 0;
  }
}
