import { decodeBase64Strict } from './image-probe';
import type { ImagePart } from './text';

/** A `data:` URL split into its parts (RFC 2397), payload left as written. */
export interface DataUrl {
  /** the declared media type as written (may be empty) */
  mediaType: string;
  /** true when the last parameter is `base64` */
  base64: boolean;
  payload: string;
}

/**
 * `data:[<type>][;<param>]*[;base64],<payload>` → its parts; null when the text is not a data URL. Written with
 * indexOf rather than a regex so a hostile multi-megabyte URL costs one linear scan.
 */
export function parseDataUrl(text: string): DataUrl | null {
  if (text.slice(0, 5).toLowerCase() !== 'data:') return null;
  const comma = text.indexOf(',');
  if (comma < 0) return null;
  const meta = text.slice(5, comma).split(';');
  const base64 = meta.length > 1 && meta.at(-1)?.trim().toLowerCase() === 'base64';
  return { mediaType: (meta[0] ?? '').trim(), base64, payload: text.slice(comma + 1) };
}

/** A base64 data URL's bytes (strict base64, never empty) and type; null when the text is no such URL. */
export function decodeDataUrl(text: string): { data: Uint8Array; mediaType?: string } | null {
  const url = parseDataUrl(text);
  const data = url?.base64 ? decodeBase64Strict(url.payload) : null;
  if (!url || !data || data.length === 0) return null;
  return { data, ...(url.mediaType ? { mediaType: url.mediaType } : {}) };
}

/** A message image given as a URL: a typed base64 data URL becomes inline data, anything else stays a URL. */
export function imagePartFromUrl(url: string): ImagePart {
  const parsed = parseDataUrl(url);
  if (parsed?.base64 && parsed.mediaType) return { type: 'image', mediaType: parsed.mediaType, data: parsed.payload };
  return { type: 'image', url };
}

/** The way back: an image part as the URL it came in as (inline data as a data URL). */
export function urlOfImagePart(part: ImagePart): string {
  return part.url ?? `data:${part.mediaType ?? 'application/octet-stream'};base64,${part.data ?? ''}`;
}
