import { GatewayError } from '@gateway/core';
import { mapUpstreamStatus, upstreamQuotaExhausted, type UpstreamErrorDetails, type UpstreamFailure } from '../upstream-errors';
import type { ChatErrorBody, ChatErrorObject } from './chat-api';

/** Reads OpenAI's `{error:{message,type,code}}` and the looser shapes compatible servers send. */
export function chatErrorDetails(json: unknown): UpstreamErrorDetails {
  const b = (json ?? {}) as ChatErrorBody;
  if (typeof b.error === 'string') return { message: b.error };
  if (b.error && typeof b.error === 'object') {
    const e = b.error;
    return { message: e.message, type: e.type, code: e.code === null || e.code === undefined ? undefined : String(e.code) };
  }
  const message = typeof b.message === 'string' ? b.message : typeof b.detail === 'string' ? b.detail : undefined;
  return { message };
}

/** Non-2xx from a chat-completions server. 402 is how several compatible servers say "out of credit". */
export function describeChatFailure(f: UpstreamFailure): GatewayError {
  const d = chatErrorDetails(f.json);
  if (f.status === 402) return upstreamQuotaExhausted(f, d);
  return mapUpstreamStatus(f, d);
}

/** An `{"error":...}` chunk inside a 200 stream: there is no status, so the type decides. */
export function chatStreamError(err: ChatErrorObject | string): GatewayError {
  const e = typeof err === 'string' ? { message: err } : err;
  const kind = `${e.type ?? ''} ${e.code ?? ''}`;
  if (/rate_limit/.test(kind))
    return new GatewayError('rate_limited', 'The upstream provider is rate limiting requests; retry later.', {
      code: 'upstream_rate_limited',
      upstreamCode: e.type,
    });
  if (/invalid_request/.test(kind))
    return new GatewayError('invalid_request', e.message || 'The upstream provider rejected the request.', {
      code: 'upstream_invalid_request',
      upstreamCode: e.type,
    });
  return new GatewayError('upstream_unavailable', 'The upstream provider failed while streaming.', {
    code: 'upstream_stream_error',
    upstreamCode: e.type ?? (e.code === null || e.code === undefined ? undefined : String(e.code)),
  });
}
