import { mapUpstreamStatus, upstreamQuotaExhausted, type UpstreamFailure } from '@gateway/provider-kit';
import type { GatewayError } from '@gateway/provider-kit';
import type { RunwayErrorBody } from './runway-api';

/** Runway's `{"error": "..."}`; running out of credits is the account, not the request. */
export function describeRunwayFailure(f: UpstreamFailure): GatewayError {
  const message = (f.json as RunwayErrorBody | undefined)?.error;
  const d = { message: typeof message === 'string' ? message : undefined };
  if (d.message && /not have enough credits|insufficient credits/i.test(d.message)) return upstreamQuotaExhausted(f, d);
  return mapUpstreamStatus(f, d);
}
