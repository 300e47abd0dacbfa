import type { Request } from 'express';
import { GatewayError, retryAfterSeconds, type MinuteCounter } from '@gateway/core';

/**
 * Sign-ins one client address may start per minute. Each start stores a row (the PKCE verifier under its state) and
 * sends the browser to the identity provider: unbounded, a script fills the table and spends the provider's limits.
 * A person needs a few.
 */
export const SIGN_INS_PER_MINUTE = 20;

/** Counts sign-in starts by client address (`req.ip`: behind TRUST_PROXY, the address the proxy saw) on `counter`. */
export function signInRate(counter: MinuteCounter, perMinute = SIGN_INS_PER_MINUTE): (req: Request) => Promise<void> {
  return async (req) => {
    const count = await counter.add(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (count.consumed > perMinute)
      throw new GatewayError('rate_limited', `More than ${perMinute} sign-ins per minute from this address. Wait a minute and try again.`, {
        code: 'sign_in_rate_exceeded',
        retryAfterSeconds: retryAfterSeconds(count),
      });
  };
}
