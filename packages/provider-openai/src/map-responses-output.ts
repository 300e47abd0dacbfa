import { GatewayError, usageOf, type AssistantContent, type FinishReason, type Usage } from '@gateway/provider-kit';
import type { ResponseObject, ResponsesOutputItem, ResponsesUsage } from './openai-responses-api';

/** input_tokens already counts cached tokens and output_tokens reasoning ones: the canonical meaning. */
export function mapResponsesUsage(u: ResponsesUsage | undefined): Usage {
  return usageOf({
    input: u?.input_tokens ?? 0,
    output: u?.output_tokens ?? 0,
    total: u?.total_tokens,
    cached: u?.input_tokens_details?.cached_tokens,
    reasoning: u?.output_tokens_details?.reasoning_tokens,
  });
}

/** One output item as canonical content; items with no canonical meaning (hosted tool calls) give none. */
export function mapOutputItem(item: ResponsesOutputItem): AssistantContent[] {
  switch (item.type) {
    case 'message':
      return (item.content ?? [])
        .map((c) => (c.type === 'refusal' ? (c.refusal ?? '') : (c.text ?? '')))
        .filter(Boolean)
        .map((text) => ({ type: 'text' as const, text }));
    case 'reasoning': {
      const text = (item.summary ?? []).map((p) => p.text ?? '').join('\n');
      return [{ type: 'reasoning', text, ...(item.encrypted_content ? { signature: item.encrypted_content } : {}) }];
    }
    case 'function_call':
      return [{ type: 'tool-call', id: item.call_id ?? item.id ?? '', name: item.name ?? '', arguments: item.arguments ?? '' }];
    case 'custom_tool_call':
      // the canonical model has functions only: a custom tool's free text becomes its one `input` argument
      return [
        {
          type: 'tool-call',
          id: item.call_id ?? item.id ?? '',
          name: item.name ?? '',
          arguments: JSON.stringify({ input: item.input ?? '' }),
        },
      ];
    default:
      return [];
  }
}

/** A finished response's status → the canonical finish reason; a failed response is an error. */
export function mapResponsesFinish(r: ResponseObject, sawToolCall: boolean): FinishReason {
  if (r.status === 'failed') throw responseFailed(r);
  if (r.status === 'incomplete') {
    const reason = r.incomplete_details?.reason;
    return reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : 'other';
  }
  return sawToolCall ? 'tool-calls' : 'stop';
}

/** `status: failed` (or a stream's `error` event): the upstream's code decides retryability. */
export function responseFailed(r: { error?: { code?: string; message?: string } }): GatewayError {
  const code = r.error?.code;
  if (code === 'rate_limit_exceeded')
    return new GatewayError('rate_limited', 'The upstream provider is rate limiting requests; retry later.', {
      code: 'upstream_rate_limited',
      upstreamCode: code,
    });
  if (code && /invalid|not_found|too_long|unsupported/.test(code))
    return new GatewayError('invalid_request', r.error?.message || 'The upstream provider rejected the request.', {
      code: 'upstream_invalid_request',
      upstreamCode: code,
    });
  return new GatewayError('upstream_unavailable', 'The upstream provider failed to generate the response.', {
    code: 'upstream_response_failed',
    upstreamCode: code,
  });
}
