import { mapUpstreamStatus, type GatewayError, type UpstreamFailure } from '@gateway/provider-kit';
import type { VoyageErrorBody } from './voyage-api';

/** Voyage's `{"detail": "..."}` (a validation failure's detail may be a list: its first message is kept). */
export function describeVoyageFailure(f: UpstreamFailure): GatewayError {
  const detail = (f.json as VoyageErrorBody | undefined)?.detail;
  const first = Array.isArray(detail) ? (detail[0] as { msg?: unknown } | undefined)?.msg : detail;
  return mapUpstreamStatus(f, { message: typeof first === 'string' ? first : undefined });
}
