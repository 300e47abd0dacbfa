/**
 * Where delivered media bytes live (videos, thumbnails). Keys are opaque strings chosen by the use
 * cases, e.g. `videos/<task id>-<nonce>.mp4`; the media type follows from the key's extension.
 */
export interface ContentStore {
  /** Writes the whole object atomically: readers see either nothing or every byte. */
  put(key: string, source: NodeJS.ReadableStream | Uint8Array): Promise<{ size: number }>;
  /** null when the key does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The bytes, or an inclusive byte range of them. */
  open(key: string, range?: { start: number; end: number }): NodeJS.ReadableStream;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Safety net for retention: deletes objects written before `cutoff`, except keys under the `except` prefixes (whose
   * owners expire them themselves, e.g. `files/`); returns how many.
   */
  deleteOlderThan?(cutoff: Date, except?: readonly string[]): Promise<number>;
}

/** Keys are relative paths of safe segments: nothing can escape a directory root or an S3 prefix. */
const CONTENT_KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

/** Every ContentStore refuses other keys the same way, whatever its backend. */
export function checkContentKey(key: string): string {
  if (!CONTENT_KEY.test(key) || key.includes('..') || key.length > 512) throw new Error(`Invalid content key ${JSON.stringify(key)}`);
  return key;
}

/**
 * The bytes of a `put` source as an iterator, started at once: from this call on the iterator holds the source's
 * errors for the next read (a source failing while the store is still opening its write is not an unhandled error).
 * A store that gives up early calls `return()`, which destroys the source.
 */
export function contentPieces(source: NodeJS.ReadableStream | Uint8Array): AsyncIterator<Buffer> {
  if (source instanceof Uint8Array)
    return (async function* () {
      yield Buffer.from(source);
    })();
  // A stream's own iterator listens only from the first read; this listener holds an earlier failure until then.
  let early: unknown;
  source.on('error', (e) => (early ??= e));
  const it = (source as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  return {
    async next() {
      const r = await it.next().catch((e: unknown) => Promise.reject(early ?? e));
      if (early) throw early;
      return r.done ? r : { value: Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value) };
    },
    async return() {
      await it.return?.();
      return { done: true, value: undefined };
    },
  };
}

const MEDIA_TYPES: Readonly<Record<string, string>> = Object.freeze({
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
});

/** The media type of a content key, from its extension. */
export function mediaTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return MEDIA_TYPES[ext] ?? 'application/octet-stream';
}

/** The key extension for a media type (inverse of mediaTypeOfKey for the types we write). */
export function extensionOf(mediaType: string): string {
  return { 'video/mp4': 'mp4', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' }[mediaType] ?? 'bin';
}

/** A generated image read back through its URL. */
export interface StoredImage {
  data: Buffer;
  mediaType: string;
  /** epoch ms after which the URL stops working */
  expiresAt: number;
}

/**
 * Generated images handed out as URLs (`response_format: "url"`): kept for `ttlMs`, then gone. The name returned by
 * `save` is the only credential a reader needs, so it is unguessable; the store decides its form.
 */
export interface GeneratedImageStore {
  readonly ttlMs: number;
  save(data: Uint8Array, mediaType: string): Promise<{ name: string; expiresAt: number }>;
  /** The image, or null when the name is malformed, unknown or expired. */
  open(name: string): Promise<StoredImage | null>;
  /** Removes expired images; returns how many. */
  sweep(): Promise<number>;
}
