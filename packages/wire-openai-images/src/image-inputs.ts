import { decodeBase64Strict, decodeDataUrl, GatewayError, invalid, parseDataUrl, type ImageFile } from '@gateway/core';
import { LIMITS, safeFetch } from '@gateway/http-kit';
import type { ImageRef } from './images.request.schema';

/** Fetches a caller's https image URL; `param` is named in errors. */
export type ImageFetcher = (url: string, param: string) => Promise<Uint8Array>;

/** The default fetcher: public https only (no private addresses, no redirects), at most LIMITS.fileBytes. */
export const safeImageFetcher: ImageFetcher = async (url, param) => (await safeFetch(url, { param, maxBytes: LIMITS.fileBytes })).data;

/** One size limit for every way an image arrives (multer enforces the same LIMITS.fileBytes on uploads). */
export function checkSize(data: Uint8Array, param: string): Uint8Array {
  if (data.byteLength > LIMITS.fileBytes) {
    throw new GatewayError(
      'payload_too_large',
      `"${param}" is ${data.byteLength} bytes; images may be at most ${LIMITS.fileBytes} bytes.`,
      {
        code: 'image_too_large',
        param,
      },
    );
  }
  return data;
}

/** A text image reference (https URL, data URL, bare base64, `{image_url}`) → its bytes. Format is checked later, from the bytes. */
export async function loadImageRef(ref: ImageRef, param: string, fetchImage: ImageFetcher = safeImageFetcher): Promise<ImageFile> {
  if (typeof ref === 'object' && 'file_id' in ref) {
    throw invalid(
      'file_id_unsupported',
      `"${param}.file_id" is not supported; send the image as a file, an https URL or base64.`,
      `${param}.file_id`,
    );
  }
  const text = (typeof ref === 'string' ? ref : ref.image_url).trim();
  if (parseDataUrl(text)) {
    const decoded = decodeDataUrl(text);
    if (!decoded)
      throw invalid('invalid_image_data', `"${param}" is a data URL but not valid base64 data ("data:<type>;base64,<data>").`, param);
    return { data: checkSize(decoded.data, param), param };
  }
  if (/^https:\/\//i.test(text)) return { data: checkSize(await fetchImage(text, param), param), param };
  if (/^[a-z][a-z0-9+.-]*:/i.test(text))
    throw invalid('invalid_image_url', `"${param}" must be an https URL, a data URL or base64.`, param);
  const bytes = decodeBase64Strict(text);
  if (!bytes) throw invalid('invalid_image_data', `"${param}" must be an https URL, a data URL or base64.`, param);
  return { data: checkSize(bytes, param), param };
}
