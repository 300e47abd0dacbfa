import {
  authenticate,
  authenticateKeyId,
  createKeyRateLimiter,
  createStreamSlots,
  createTokenRateLimiter,
  type AccountLimits,
  type Billing,
  type DelegatedKeys,
  type KeyRepository,
} from '@gateway/core';
import { REFUSED_PRINCIPAL, type BudgetedPrincipal } from '@gateway/http-kit';
import { rateLimitCounts } from '@gateway/rate-limit-redis';
import type { GatewayConfig } from '../config';
import type { Infrastructure } from '../infrastructure';

export type Admission = ReturnType<typeof admissionPolicies>;

/** Who may call, how often and how much: the key, its rate limits (Redis when shared) and its budget. */
export function admissionPolicies(
  config: GatewayConfig,
  infra: Infrastructure,
  keys: KeyRepository,
  billing: Billing,
  clock: () => Date,
  account?: AccountLimits,
  delegated?: DelegatedKeys,
) {
  // the live limits object: a catalogue reload changes it in place, on every instance alike
  const counts = rateLimitCounts(infra.redis);
  const limiter = createKeyRateLimiter(config.limits, counts, account);
  const streamSlots = createStreamSlots(config.limits, counts, account);
  const tokenRate = createTokenRateLimiter(counts, account);
  const auth = async (raw: string | undefined): Promise<BudgetedPrincipal> => {
    const onBehalf = delegated?.resolve(raw);
    const principal = onBehalf
      ? { ...(await authenticateKeyId(keys, onBehalf.keyId, clock)), batchId: onBehalf.batchId }
      : await authenticate(keys, raw, clock);
    try {
      await limiter.consume(principal);
      await tokenRate.check(principal);
    } catch (e) {
      // the refusal's log line names who was refused
      if (e instanceof Error) Object.assign(e, { [REFUSED_PRINCIPAL]: principal });
      throw e;
    }
    return { ...principal, budget: await billing.status(principal) };
  };
  return { auth, streamSlots, tokenRate };
}
