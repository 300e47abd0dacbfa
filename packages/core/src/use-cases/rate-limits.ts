import { GatewayError } from '../errors';
import type { Principal } from '../auth';
import type { UsageLog, UsageRow } from '../ports/usage-log.port';
import type { MinuteCount, RateLimitStore, SlotRelease } from '../ports/rate-limit.port';

export interface RateLimits {
  /** requests per minute per key; 0 = unlimited. A key's own `limits.requests_per_minute` replaces it for that key. */
  requestsPerMinutePerKey: number;
}

/**
 * Ceilings on all the keys of one account together (0 = none), so that keys an account admin mints for itself
 * (each within its own limits) do not add up to more than one tenant may take.
 */
export interface AccountLimits {
  /** REQUESTS_PER_MINUTE_PER_ACCOUNT */
  requestsPerMinute: number;
  /** TOKENS_PER_MINUTE_PER_ACCOUNT */
  tokensPerMinute: number;
  /** CONCURRENT_STREAMS_PER_ACCOUNT */
  concurrentStreams: number;
}

/** Streams hold a connection and memory on an instance, so they are bounded by default; request and token rates are not. */
export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = Object.freeze({ requestsPerMinute: 0, tokensPerMinute: 0, concurrentStreams: 1000 });

/** RATE_LIMIT_ON_REDIS_ERROR: what a limit check does while the shared store cannot answer. */
export type SharedStorePolicy = 'open' | 'closed';

/** The refusal when the policy is closed and the shared store cannot count. */
export function limiterUnavailable(): GatewayError {
  return new GatewayError('upstream_unavailable', 'Rate limits cannot be checked right now (Redis is unreachable); retry shortly.', {
    code: 'rate_limiter_unavailable',
    retryAfterSeconds: 1,
  });
}

/** Counts that always answer: what the limits below read. */
export interface LimitCounts {
  addPoints(prefix: string, key: string, points: number): Promise<MinuteCount>;
  peekPoints(prefix: string, key: string): Promise<MinuteCount>;
  takeSlot(holder: string, limit: number): Promise<SlotRelease | null>;
}

/**
 * The shared store's counts while it answers, so a limit holds across instances. While it cannot, the policy decides:
 * open counts in `local` (this instance's own count still bounds it), closed refuses (limiterUnavailable).
 */
export function limitCounts(local: RateLimitStore, shared?: RateLimitStore, policy: SharedStorePolicy = 'open'): LimitCounts {
  async function ask<T>(op: (s: RateLimitStore) => Promise<T | undefined>): Promise<T> {
    const answer = shared ? await op(shared) : undefined;
    if (answer !== undefined) return answer;
    if (shared && policy === 'closed') throw limiterUnavailable();
    return (await op(local)) as T;
  }
  return {
    addPoints: (prefix, key, points) => ask((s) => s.addPoints(prefix, key, points)),
    peekPoints: (prefix, key) => ask((s) => s.peekPoints(prefix, key)),
    takeSlot: (holder, limit) => ask((s) => s.takeSlot(holder, limit)),
  };
}

/** One counter of `counts`: points per key per minute under `prefix`. */
export function minuteCounter(counts: LimitCounts, prefix: string) {
  return {
    /** adds points and answers the count after it */
    add: (key: string, points = 1) => counts.addPoints(prefix, key, points),
    /** the count, unchanged */
    peek: (key: string) => counts.peekPoints(prefix, key),
  };
}
export type MinuteCounter = ReturnType<typeof minuteCounter>;

export const retryAfterSeconds = (c: MinuteCount) => Math.max(1, Math.ceil(c.msBeforeNext / 1000));

export interface KeyRateLimiter {
  consume(principal: Principal): Promise<void>;
}

/**
 * Per-key request rate: the key's own limit, else the gateway-wide one (read at every call: a catalogue reload changes
 * `limits` in place); and the account's, over all its keys.
 */
export function createKeyRateLimiter(
  limits: RateLimits,
  counts: LimitCounts,
  account: Pick<AccountLimits, 'requestsPerMinute'> = DEFAULT_ACCOUNT_LIMITS,
): KeyRateLimiter {
  const counter = minuteCounter(counts, 'gw-rpm');
  const accounts = minuteCounter(counts, 'gw-rpm-account');
  return {
    async consume(p: Principal) {
      const limit = p.limits?.requestsPerMinute ?? limits.requestsPerMinutePerKey;
      if (!limit && !account.requestsPerMinute) return; // nothing to count: no store round trip, no promises per request
      const [mine, all] = await Promise.all([
        limit ? counter.add(p.keyId) : undefined,
        account.requestsPerMinute ? accounts.add(p.accountId) : undefined,
      ]);
      if (mine && mine.consumed > limit)
        throw new GatewayError('rate_limited', `Rate limit of ${limit} requests per minute for this key exceeded.`, {
          code: 'rate_limit_exceeded',
          retryAfterSeconds: retryAfterSeconds(mine),
        });
      if (all && all.consumed > account.requestsPerMinute)
        throw new GatewayError(
          'rate_limited',
          `Rate limit of ${account.requestsPerMinute} requests per minute for this account (all its keys) exceeded.`,
          { code: 'rate_limit_exceeded', retryAfterSeconds: retryAfterSeconds(all) },
        );
    },
  };
}

/**
 * Tokens per minute for keys with a `tokens_per_minute` limit, and for accounts under TOKENS_PER_MINUTE_PER_ACCOUNT. A
 * call's tokens are known only after it, so a key (an account) is refused once the tokens of the current minute
 * reached its limit (the call that crosses it completes, as credits' post-paid text does); `wrap` adds what each
 * finished call used (from its usage row).
 */
export function createTokenRateLimiter(counts: LimitCounts, account: Pick<AccountLimits, 'tokensPerMinute'> = DEFAULT_ACCOUNT_LIMITS) {
  const counter = minuteCounter(counts, 'gw-tpm');
  const accounts = minuteCounter(counts, 'gw-tpm-account');
  /** keys authenticated here with a limit: only their usage is counted */
  const limited = new Map<string, number>();
  const refuse = (limit: number, whose: string, count: MinuteCount) =>
    new GatewayError('rate_limited', `Token rate limit of ${limit} tokens per minute for this ${whose} reached.`, {
      code: 'token_rate_limit_exceeded',
      retryAfterSeconds: retryAfterSeconds(count),
    });
  const count = (row: UsageRow) => {
    const tokens = (row.inputTokens ?? 0) + (row.outputTokens ?? 0);
    if (tokens <= 0) return;
    // ignored: the request is answered already; a count lost to a Redis outage only under-counts this minute
    if (row.keyId && limited.has(row.keyId)) void counter.add(row.keyId, tokens).catch(() => undefined);
    if (row.accountId && account.tokensPerMinute) void accounts.add(row.accountId, tokens).catch(() => undefined);
  };
  return {
    async check(p: Principal): Promise<void> {
      if (account.tokensPerMinute) {
        const all = await accounts.peek(p.accountId);
        if (all.consumed >= account.tokensPerMinute) throw refuse(account.tokensPerMinute, 'account (all its keys)', all);
      }
      const limit = p.limits?.tokensPerMinute;
      if (!limit) {
        limited.delete(p.keyId);
        return;
      }
      if (limited.size > 100_000) limited.clear();
      limited.set(p.keyId, limit);
      const used = await counter.peek(p.keyId);
      if (used.consumed >= limit) throw refuse(limit, 'key', used);
    },
    /** The usage log, counting each row's tokens against its key's limit and its account's. */
    wrap(log: UsageLog): UsageLog {
      return {
        record(row) {
          count(row);
          log.record(row);
        },
        flush: () => log.flush(),
        written: log.written && ((row) => log.written!(row)),
        pending: log.pending && ((row) => log.pending!(row)),
      };
    },
  };
}
export type TokenRateLimiter = ReturnType<typeof createTokenRateLimiter>;

export interface StreamSlots {
  /** takes one of the key's stream slots, or throws a rate_limited GatewayError; the function frees it (once) */
  acquire(principal: Principal): Promise<() => void>;
}

const STREAM_RETRY_AFTER_SECONDS = 2;

function tooManyStreams(limit: number, whose: 'key' | 'account'): GatewayError {
  const holder = whose === 'key' ? 'This key' : 'This account (all its keys together)';
  return new GatewayError(
    'rate_limited',
    `${holder} already has ${limit} streams open, its limit of concurrent streams. Retry when one has ended.`,
    { code: 'too_many_concurrent_streams', retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
  );
}

/**
 * Concurrent streams per key (`limits.concurrentStreamsPerKey`, 0 = unlimited; a key's own `concurrent_streams`
 * replaces it for that key) and per account (CONCURRENT_STREAMS_PER_ACCOUNT, every key of it together).
 */
export function createStreamSlots(
  limits: { concurrentStreamsPerKey: number },
  counts: LimitCounts,
  account: Pick<AccountLimits, 'concurrentStreams'> = DEFAULT_ACCOUNT_LIMITS,
): StreamSlots {
  return {
    async acquire(p) {
      const held: SlotRelease[] = [];
      const release = () => held.splice(0).forEach((r) => r());
      const keyLimit = p.limits?.concurrentStreams ?? limits.concurrentStreamsPerKey;
      try {
        for (const [holder, limit, whose] of [
          [`account:${p.accountId}`, account.concurrentStreams, 'account'],
          [p.keyId, keyLimit, 'key'],
        ] as const) {
          if (!limit) continue;
          const slot = await counts.takeSlot(holder, limit);
          if (!slot) throw tooManyStreams(limit, whose);
          held.push(slot);
        }
      } catch (e) {
        release();
        throw e;
      }
      return release;
    },
  };
}
