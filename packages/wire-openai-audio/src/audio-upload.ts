import type { RequestHandler } from 'express';
import { GatewayError } from '@gateway/core';
import { boundedMultipartBody, LIMITS } from '@gateway/http-kit';

/** Room for the text fields beside the one file (OpenAI's prompt is a few hundred tokens). */
const FIELD_BYTES = 1024 * 1024;

const tooLarge = () =>
  new GatewayError('payload_too_large', `The audio file may be at most ${LIMITS.fileBytes} bytes (25 MB).`, {
    code: 'limit_file_size',
    param: 'file',
  });

/**
 * An audio form (one file and a few fields), refused with 413 as soon as it passes 25 MB and its fields, while it
 * streams in (multer alone reports a file over its limit only once the whole upload has arrived). Files stay in
 * memory: nothing is ever written to disk.
 */
export const audioUpload: RequestHandler = boundedMultipartBody(LIMITS.fileBytes + FIELD_BYTES, tooLarge);
