import { decodeBase64Strict, invalid, probeClientImage, type VideoImage } from '@gateway/core';
import type { InlineImage } from './predict.request.schema';

/** `{bytesBase64Encoded, mimeType}` (shape checked by the schema) → a probed VideoImage: the bytes must be what they claim. */
export function decodeInlineImage(image: InlineImage, at: string): VideoImage {
  const data = decodeBase64Strict(image.bytesBase64Encoded);
  if (!data || data.length === 0) {
    throw invalid(
      'invalid_image_base64',
      `${at}.bytesBase64Encoded is not valid base64 (send plain base64, without a "data:" prefix).`,
      `${at}.bytesBase64Encoded`,
    );
  }
  const probed = probeClientImage(data, `${at}.bytesBase64Encoded`);
  if (!probed)
    throw invalid('invalid_image_data', `${at}.bytesBase64Encoded does not decode to a PNG or JPEG image.`, `${at}.bytesBase64Encoded`);
  if (probed.mediaType !== image.mimeType) {
    throw invalid('image_mime_mismatch', `${at}.mimeType says ${image.mimeType} but the bytes are ${probed.mediaType}.`, `${at}.mimeType`);
  }
  return { mediaType: probed.mediaType, data, width: probed.width, height: probed.height };
}
