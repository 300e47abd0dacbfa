import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type multer from 'multer';
import { GatewayError, invalid } from '@gateway/core';
import { jsonProblem, jsonValueCount, stringProblem, wellFormed, type TextProblem } from './text-checks';

export const LIMITS = Object.freeze({
  /** a JSON body as sent: room for inline images and documents (base64) */
  jsonBytes: 32 * 1024 * 1024,
  /**
   * a compressed JSON body (Content-Encoding) once inflated, counted while it inflates: a few KB of gzip can
   * otherwise stand for the whole jsonBytes. Inline media does not compress, so text is what this must hold.
   */
  inflatedJsonBytes: 4 * 1024 * 1024,
  /**
   * values in one JSON body, counted before parsing as its `{`, `[` and `,` outside strings (each object and array,
   * and each element or member after the first): what bounds the parse's time and memory
   */
  jsonValues: 200_000,
  fileBytes: 25 * 1024 * 1024,
  files: 16,
  fields: 100,
  fieldBytes: 16 * 1024 * 1024,
  /** a whole multipart request, files and fields together: what one upload may hold in memory */
  multipartBytes: 64 * 1024 * 1024,
  /** objects and arrays inside one another */
  jsonDepth: 64,
});

const MALFORMED_TEXT = 'gateway.invalid_text';
const TOO_MANY_VALUES = 'gateway.too_many_json_values';

/** A body sent with a Content-Encoding other than identity: it inflates to more than travelled. */
const isEncoded = (req: Request) => (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase() !== 'identity';

function jsonParser(limit: number, maxValues: number): RequestHandler {
  return express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    // The bytes must be well-formed in the declared charset (utf-8, utf-16, utf-32): the decoder would
    // otherwise replace bad sequences silently. A plain Error: body-parser assigns `status` to what verify
    // throws, which a GatewayError (getter) refuses.
    verify: (_req, _res, buf, encoding) => {
      if (!wellFormed(buf, encoding)) throw Object.assign(new Error('malformed text'), { type: MALFORMED_TEXT });
      if (jsonValueCount(buf, encoding, maxValues) > maxValues)
        throw Object.assign(new Error('too many values'), { type: TOO_MANY_VALUES });
    },
  });
}

const PROBLEM_MESSAGE: Record<TextProblem, string> = {
  nul_character: 'The request contains a NUL character (\\u0000), which is not accepted.',
  invalid_text: 'The request contains text that is not well-formed in its charset (an invalid byte sequence or a lone surrogate).',
  json_too_deep: `The request body nests objects and arrays deeper than ${LIMITS.jsonDepth} levels.`,
};

const refusal = (p: TextProblem, param?: string) => invalid(p, PROBLEM_MESSAGE[p], param);

/**
 * JSON bodies up to `limit` bytes as sent, a compressed one up to LIMITS.inflatedJsonBytes once inflated (body-parser
 * counts the inflated bytes against the limit as they come and stops inflating past it), at most LIMITS.jsonValues
 * values either way (a route whose vendor admits more, embeddings' token arrays, passes its own `maxValues`); a JSON
 * body must be an object.
 */
export function jsonBody(limit: number = LIMITS.jsonBytes, maxValues: number = LIMITS.jsonValues): RequestHandler {
  const plain = jsonParser(limit, maxValues);
  const inflatedLimit = Math.min(limit, LIMITS.inflatedJsonBytes);
  const compressed = jsonParser(inflatedLimit, maxValues);
  return (req, res, next) =>
    (isEncoded(req) ? compressed : plain)(req, res, (err?: unknown) => {
      const type = (err as { type?: string } | undefined)?.type;
      if (type === MALFORMED_TEXT) return next(refusal('invalid_text'));
      if (type === TOO_MANY_VALUES) return next(tooManyValues(maxValues));
      if (type === 'entity.too.large' && isEncoded(req)) return next(inflatedTooLarge(inflatedLimit));
      if (err) return next(err);
      if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
        if (!req.is('application/json') && !req.is('application/*+json')) {
          return next(invalid('unsupported_content_type', 'Send the body as application/json.'));
        }
        return next(invalid('invalid_json', 'The request body must be a JSON object.'));
      }
      // after decoding, whatever the charset: NUL, lone surrogates (\\ud800 escapes) and nesting
      const problem = jsonProblem(req.body, LIMITS.jsonDepth);
      if (problem) return next(refusal(problem));
      next();
    });
}

/** Built on the first multipart request: most gateways never see one and need not hold multer and busboy. */
let multipartParser: RequestHandler | undefined;
function parseMultipart(req: Request, res: Response, next: NextFunction): void {
  if (!multipartParser) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy
    const m = require('multer') as typeof multer;
    multipartParser = m({
      storage: m.memoryStorage(),
      limits: { fileSize: LIMITS.fileBytes, files: LIMITS.files, fields: LIMITS.fields, fieldSize: LIMITS.fieldBytes },
    }).any();
  }
  multipartParser(req, res, next);
}

const inflatedTooLarge = (limit: number) =>
  new GatewayError(
    'payload_too_large',
    `A compressed request body may inflate to at most ${limit} bytes; send a larger body uncompressed.`,
    { code: 'inflated_body_too_large' },
  );

const tooManyValues = (maxValues: number) =>
  new GatewayError(
    'payload_too_large',
    `The request body holds more than ${maxValues} JSON values (objects, arrays and the elements and members in them).`,
    { code: 'too_many_json_values' },
  );

const multipartTooLarge = () =>
  new GatewayError('payload_too_large', `A multipart request may be at most ${LIMITS.multipartBytes} bytes in total.`, {
    code: 'request_too_large',
  });

/**
 * multipart/form-data into memory, bounded as a whole (`maxBytes`: a declared length is refused before reading, an
 * undeclared one as soon as the count passes it, with `tooLarge`'s error, and the rest drained unread) as well as per
 * file and field; text fields are held to the same text rules as JSON.
 */
export function boundedMultipartBody(maxBytes: number, tooLarge: () => GatewayError): RequestHandler {
  return (req, res, next) => {
    // multer reads the bytes as sent: a compressed form would only be misread, and no client sends one
    if (isEncoded(req))
      return next(invalid('unsupported_encoding', 'A multipart body cannot be sent compressed (Content-Encoding); send it as is.'));
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return next(tooLarge());
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
      if (received <= maxBytes) return;
      req.unpipe();
      req.resume(); // drain what is left so the answer can be read
      once(tooLarge());
    };
    parseMultipart(req, res, (err?: unknown) => {
      if (err) return once(err);
      for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
        for (const v of Array.isArray(value) ? value : [value]) {
          // fields are decoded as UTF-8 with U+FFFD for bytes that are not: that character means malformed input
          const problem = typeof v === 'string' ? (stringProblem(v) ?? (v.includes('\ufffd') ? 'invalid_text' : undefined)) : undefined;
          if (problem) return once(refusal(problem, name));
        }
      }
      once();
    });
    // after multer has piped the request into its parser, so this listener takes nothing from it
    req.on('data', count);
  };
}

/** A multipart body within LIMITS.multipartBytes in all. */
const multipartBody = boundedMultipartBody(LIMITS.multipartBytes, multipartTooLarge);

/** JSON or multipart, chosen by content type. */
export function jsonOrMultipart(): RequestHandler {
  const json = jsonBody();
  return (req, res, next) => (req.is('multipart/form-data') ? multipartBody(req, res, next) : json(req, res, next));
}
