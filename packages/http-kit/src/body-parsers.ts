import express, { type RequestHandler } from 'express';
import multer from 'multer';
import { invalid } from '@gateway/core';

export const LIMITS = Object.freeze({
  jsonBytes: 32 * 1024 * 1024,
  fileBytes: 25 * 1024 * 1024,
  files: 16,
  fields: 100,
  fieldBytes: 16 * 1024 * 1024,
});

const NUL_IN_BODY = 'gateway.nul_character';

/** JSON bodies up to LIMITS.jsonBytes; a JSON body must be an object. */
export function jsonBody(limit = LIMITS.jsonBytes): RequestHandler {
  const parse = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    // PostgreSQL text and jsonb cannot hold NUL: refuse it at the door instead of failing at the store.
    // A plain Error: body-parser assigns `status` to what verify throws, which a GatewayError (getter) refuses.
    verify: (_req, _res, buf) => {
      if (buf.includes('\\u0000')) throw Object.assign(new Error('NUL character in body'), { type: NUL_IN_BODY });
    },
  });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === NUL_IN_BODY) {
        return next(invalid('nul_character', 'The request body contains a NUL character (\\u0000), which is not accepted.'));
      }
      if (err) return next(err);
      if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
        if (!req.is('application/json') && !req.is('application/*+json')) {
          return next(invalid('unsupported_content_type', 'Send the body as application/json.'));
        }
        return next(invalid('invalid_json', 'The request body must be a JSON object.'));
      }
      next();
    });
}

/** multipart/form-data into memory, with documented limits. */
export const multipartBody = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: LIMITS.fileBytes, files: LIMITS.files, fields: LIMITS.fields, fieldSize: LIMITS.fieldBytes },
}).any();

/** JSON or multipart, chosen by content type. */
export function jsonOrMultipart(): RequestHandler {
  const json = jsonBody();
  return (req, res, next) => (req.is('multipart/form-data') ? multipartBody(req, res, next) : json(req, res, next));
}
