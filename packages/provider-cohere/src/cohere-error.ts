import { mapUpstreamStatus, upstreamQuotaExhausted, type GatewayError, type UpstreamFailure } from '@gateway/provider-kit';
import type { CohereErrorBody } from './cohere-api';

/**
 * Cohere's `{"message": "..."}`. 402 is the account out of credit (another deployment may answer); 498 is Cohere's
 * "invalid token", an upstream credential problem like 401.
 */
export function describeCohereFailure(f: UpstreamFailure): GatewayError {
  const message = (f.json as CohereErrorBody | undefined)?.message;
  const d = { message: typeof message === 'string' ? message : undefined };
  if (f.status === 402) return upstreamQuotaExhausted(f, d);
  return mapUpstreamStatus(f.status === 498 ? { ...f, status: 401 } : f, d);
}
