import type { Response } from 'express';
import { GatewayError, toGatewayError } from '@gateway/core';
import type { ErrorRenderer } from './error-shape';
import { clientLeft } from './request-abort';

/** Framework and parser failures, as GatewayErrors: never a 500 for the caller's mistake. */
export function normalizeError(e: unknown): GatewayError {
  if (e instanceof GatewayError) return e;
  const err = e as { type?: string; status?: number; code?: string; field?: string; message?: string; limit?: number };
  if (err?.type === 'entity.parse.failed')
    return new GatewayError('invalid_request', 'The request body is not valid JSON.', { code: 'invalid_json' });
  if (err?.type === 'entity.too.large') {
    return new GatewayError('payload_too_large', `The request body exceeds the limit of ${err.limit} bytes.`, {
      code: 'payload_too_large',
    });
  }
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
    return new GatewayError('invalid_request', 'Unsupported request body encoding.', { code: 'unsupported_encoding' });
  }
  if (err?.type === 'request.aborted') return new GatewayError('invalid_request', 'The request was aborted.', { code: 'request_aborted' });
  if (typeof err?.code === 'string' && err.code.startsWith('LIMIT_')) {
    const tooLarge =
      err.code === 'LIMIT_FILE_SIZE' ||
      err.code === 'LIMIT_FIELD_VALUE' ||
      err.code === 'LIMIT_FILE_COUNT' ||
      err.code === 'LIMIT_PART_COUNT' ||
      err.code === 'LIMIT_FIELD_COUNT';
    return new GatewayError(
      tooLarge ? 'payload_too_large' : 'invalid_request',
      `Multipart upload refused: ${err.message}${err.field ? ` (field ${err.field})` : ''}.`,
      {
        code: err.code.toLowerCase(),
        param: err.field,
      },
    );
  }
  // Multer's other refusals (a part without a field name, an unexpected file field): the body is malformed.
  if ((e as Error | undefined)?.name === 'MulterError') {
    return new GatewayError('invalid_request', `The multipart body is malformed: ${err.message}.`, {
      code: 'malformed_multipart',
      param: err.field,
    });
  }
  if (err?.status && err.status >= 400 && err.status < 500) {
    return new GatewayError('invalid_request', 'The request could not be read.', { code: 'malformed_request' });
  }
  if (err?.message && /Multipart|Malformed part header|Unexpected end of form|boundary/i.test(err.message)) {
    return new GatewayError('invalid_request', 'The multipart body is malformed.', { code: 'malformed_multipart' });
  }
  return toGatewayError(e);
}

export function sendError(res: Response, e: unknown, render: ErrorRenderer): void {
  // The failure is the client's leaving (its upstream call was aborted): nobody is there to answer, and it is no error.
  if (clientLeft(res)) {
    res.locals.errorCode = 'client_closed_request';
    return;
  }
  const err = normalizeError(e);
  if (err.reason === 'internal') res.locals.internalError = e;
  res.locals.errorCode = err.code;
  res.locals.errorReason = err.reason;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, body } = render(err);
  // the openai and Anthropic SDKs honour this header over their status-based retry (5xx, 409, 429)
  if (!err.retryable) res.setHeader('x-should-retry', 'false');
  if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(Math.max(0, Math.ceil(err.retryAfterSeconds))));
  // a route that names how to authenticate (the MCP endpoint's OAuth option) says it on a refused credential
  if (status === 401 && typeof res.locals.authChallenge === 'string') res.setHeader('WWW-Authenticate', res.locals.authChallenge);
  res.status(status).json(body);
}
