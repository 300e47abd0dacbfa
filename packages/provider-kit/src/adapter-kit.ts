import { ERROR_REASONS, GatewayError } from '@gateway/core';
import { ADAPTER_CONTRACT_VERSION, type AdapterKit } from './adapter-contract';
import { parseSse } from './sse-parser';
import { malformedUpstream, mapUpstreamStatus } from './upstream-errors';

/** The gateway's side of the contract: the helpers every outside adapter gets as `env.kit`, built on the built-ins' own. */

async function* parseNdjson(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  const parse = (line: string): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw malformedUpstream('a stream line that is not JSON');
    }
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) yield parse(line);
    }
  }
  if (buffer.trim()) yield parse(buffer.trim());
}

export const ADAPTER_KIT = Object.freeze<AdapterKit>({
  contractVersion: ADAPTER_CONTRACT_VERSION,
  reasons: ERROR_REASONS,
  error: (reason, message, details) => new GatewayError(reason, message, details),
  statusError: (status, message, details = {}) =>
    mapUpstreamStatus(
      { status, headers: { 'retry-after': details.retryAfter ?? undefined }, bodyText: '', requestId: details.requestId },
      { message, code: details.code },
    ),
  malformed: malformedUpstream,
  parseSse,
  parseNdjson,
});
