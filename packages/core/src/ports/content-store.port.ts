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
  /** Safety net for retention: deletes objects written before `cutoff`; returns how many. */
  deleteOlderThan?(cutoff: Date): Promise<number>;
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
