import type { RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import { LIMITS, multipartBody } from '@gateway/http-kit';

/** Room for the text fields beside the one file (OpenAI's prompt is a few hundred tokens). */
const FIELD_BYTES = 1024 * 1024;
const MAX_BYTES = LIMITS.fileBytes + FIELD_BYTES;

const tooLarge = () =>
  new GatewayError('payload_too_large', `The audio file may be at most ${LIMITS.fileBytes} bytes (25 MB).`, {
    code: 'limit_file_size',
    param: 'file',
  });

/**
 * An audio form (one file and a few fields), refused with 413 as soon as it passes 25 MB and its fields: multer
 * reports a file over its limit only once the whole upload has arrived, so the bytes are counted here as they
 * come, and the rest is drained unread. Files stay in memory (nothing is ever written to disk).
 */
export const audioUpload: RequestHandler = (req, res, next) => {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BYTES) return next(tooLarge());
  let settled = false;
  const once = (err?: unknown) => {
    if (settled) return;
    settled = true;
    req.off('data', count);
    next(err);
  };
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= MAX_BYTES) return;
    req.unpipe();
    req.resume();
    once(tooLarge());
  };
  multipartBody(req, res, once);
  // after multer has piped the request into its parser (multipartBody does the same), so this takes nothing from it
  req.on('data', count);
};
