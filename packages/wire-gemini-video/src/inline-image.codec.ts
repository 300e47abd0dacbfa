import { decodeBase64Strict, invalid, probeClientImage, type VideoImage } from '@gateway/core';
import { onlyAllowed } from './refused-fields';

/** Veo accepts PNG and JPEG frames; the declared type must be what the bytes really are. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

/** `{bytesBase64Encoded, mimeType}` (base64 without a data-URL prefix) → a probed VideoImage. */
export function decodeInlineImage(value: unknown, at: string): VideoImage {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('invalid_image', `${at} must be an object {bytesBase64Encoded, mimeType}.`, at);
  }
  const obj = value as Record<string, unknown>;
  onlyAllowed(obj, at, ['bytesBase64Encoded', 'mimeType']);
  const { bytesBase64Encoded: b64, mimeType } = obj;
  if (typeof b64 !== 'string' || typeof mimeType !== 'string') {
    throw invalid('invalid_image', `${at} needs both "bytesBase64Encoded" (a base64 string) and "mimeType".`, at);
  }
  if (!(INLINE_IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    throw invalid(
      'unsupported_image_mime_type',
      `${at}.mimeType ${JSON.stringify(mimeType)} is not supported; use ${INLINE_IMAGE_TYPES.join(' or ')}.`,
      `${at}.mimeType`,
    );
  }
  const data = decodeBase64Strict(b64);
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
  if (probed.mediaType !== mimeType) {
    throw invalid('image_mime_mismatch', `${at}.mimeType says ${mimeType} but the bytes are ${probed.mediaType}.`, `${at}.mimeType`);
  }
  return { mediaType: probed.mediaType, data, width: probed.width, height: probed.height };
}
