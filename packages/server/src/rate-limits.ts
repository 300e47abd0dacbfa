import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
// The two limiters by their own files: the package's index loads every store it supports (Mongo, MySQL, etcd...).
/* eslint-disable @typescript-eslint/no-require-imports */
const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory') as typeof import('rate-limiter-flexible').RateLimiterMemory;
const RateLimiterRedis = require('rate-limiter-flexible/lib/RateLimiterRedis') as typeof import('rate-limiter-flexible').RateLimiterRedis;
/* eslint-enable @typescript-eslint/no-require-imports */
import { GatewayError, type Principal, type UsageLog, type UsageRow } from '@gateway/core';
import { sendError, STREAM_ADMISSION, type ErrorRenderer, type StreamAdmission } from '@gateway/http-kit';
import { limiterUnavailable, type RedisLink } from './redis-link';

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

export interface KeyRateLimiter {
  consume(principal: Principal): Promise<void>;
  close(): Promise<void>;
}

/** Counts are compared here, against each key's own limit, so one store of counters serves every limit. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** What a per-minute counter knows of one key: the points taken in the current minute and when it ends. */
export interface MinuteCount {
  consumed: number;
  msBeforeNext: number;
}

/**
 * Points per key per minute. With Redis the counters are shared, so a limit holds across instances; otherwise in
 * this process's memory. While Redis cannot answer, the link's policy decides: open counts in memory here, closed
 * refuses (limiterUnavailable).
 */
export function minuteCounter(keyPrefix: string, redis?: RedisLink) {
  const opts = { points: UNBOUNDED, duration: 60, keyPrefix };
  const memory = new RateLimiterMemory(opts);
  const shared = redis && new RateLimiterRedis({ ...opts, storeClient: redis.client, rejectIfRedisNotReady: true });
  const toCount = (r: RateLimiterRes | null): MinuteCount => ({ consumed: r?.consumedPoints ?? 0, msBeforeNext: r?.msBeforeNext ?? 0 });
  async function use(op: (l: RateLimiterAbstract) => Promise<RateLimiterRes | null>): Promise<MinuteCount> {
    if (!redis || !shared) return toCount(await op(memory));
    const r = await redis.run(() => op(shared));
    if (r.ok) return toCount(r.value);
    if (redis.policy === 'closed') throw limiterUnavailable();
    return toCount(await op(memory));
  }
  return {
    /** adds points and answers the count after it */
    add: (key: string, points = 1) => use((l) => l.consume(key, points)),
    /** the count, unchanged */
    peek: (key: string) => use((l) => l.get(key)),
  };
}

const retryAfter = (c: MinuteCount) => Math.max(1, Math.ceil(c.msBeforeNext / 1000));

/**
 * Per-key request rate: the key's own limit, else the gateway-wide one (read at every call: a catalogue reload changes
 * `limits` in place); and the account's, over all its keys.
 */
export function createKeyRateLimiter(
  limits: RateLimits,
  redis?: RedisLink,
  account: Pick<AccountLimits, 'requestsPerMinute'> = DEFAULT_ACCOUNT_LIMITS,
): KeyRateLimiter {
  const counter = minuteCounter('gw-rpm', redis);
  const accounts = minuteCounter('gw-rpm-account', redis);
  return {
    async consume(p: Principal) {
      const limit = p.limits?.requestsPerMinute ?? limits.requestsPerMinutePerKey;
      const [mine, all] = await Promise.all([
        limit ? counter.add(p.keyId) : undefined,
        account.requestsPerMinute ? accounts.add(p.accountId) : undefined,
      ]);
      if (mine && mine.consumed > limit)
        throw new GatewayError('rate_limited', `Rate limit of ${limit} requests per minute for this key exceeded.`, {
          code: 'rate_limit_exceeded',
          retryAfterSeconds: retryAfter(mine),
        });
      if (all && all.consumed > account.requestsPerMinute)
        throw new GatewayError(
          'rate_limited',
          `Rate limit of ${account.requestsPerMinute} requests per minute for this account (all its keys) exceeded.`,
          { code: 'rate_limit_exceeded', retryAfterSeconds: retryAfter(all) },
        );
    },
    async close() {
      return undefined;
    },
  };
}

/**
 * Tokens per minute for keys with a `tokens_per_minute` limit, and for accounts under TOKENS_PER_MINUTE_PER_ACCOUNT. A
 * call's tokens are known only after it, so a key (an account) is refused once the tokens of the current minute
 * reached its limit (the call that crosses it completes, as credits' post-paid text does); `record` adds what each
 * finished call used (from its usage row).
 */
export function createTokenRateLimiter(redis?: RedisLink, account: Pick<AccountLimits, 'tokensPerMinute'> = DEFAULT_ACCOUNT_LIMITS) {
  const counter = minuteCounter('gw-tpm', redis);
  const accounts = minuteCounter('gw-tpm-account', redis);
  /** keys authenticated here with a limit: only their usage is counted */
  const limited = new Map<string, number>();
  const refuse = (limit: number, whose: string, count: MinuteCount) =>
    new GatewayError('rate_limited', `Token rate limit of ${limit} tokens per minute for this ${whose} reached.`, {
      code: 'token_rate_limit_exceeded',
      retryAfterSeconds: retryAfter(count),
    });
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
      const count = await counter.peek(p.keyId);
      if (count.consumed >= limit) throw refuse(limit, 'key', count);
    },
    /** The usage log, counting each row's tokens against its key's limit and its account's. */
    wrap(log: UsageLog): UsageLog {
      const count = (row: UsageRow) => {
        const tokens = (row.inputTokens ?? 0) + (row.outputTokens ?? 0);
        if (tokens <= 0) return;
        // ignored: the request is answered already; a count lost to a Redis outage only under-counts this minute
        if (row.keyId && limited.has(row.keyId)) void counter.add(row.keyId, tokens).catch(() => undefined);
        if (row.accountId && account.tokensPerMinute) void accounts.add(row.accountId, tokens).catch(() => undefined);
      };
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
  close(): Promise<void>;
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

/** Takes one of `limit` slots of a holder (a key, an account): its release, or null when all are taken. */
type TakeSlot = (holder: string, limit: number) => Promise<(() => void) | null>;

/** Counts in this process's memory. */
function memorySlots(): TakeSlot {
  const open = new Map<string, number>();
  return async (holder, limit) => {
    const n = open.get(holder) ?? 0;
    if (n >= limit) return null;
    open.set(holder, n + 1);
    return () => {
      const left = (open.get(holder) ?? 1) - 1;
      if (left > 0) open.set(holder, left);
      else open.delete(holder);
    };
  };
}

/**
 * One sorted set per holder in Redis: a member per open stream, scored by when its lease ends. A holder renews
 * its lease while the stream runs, so the slots of a crashed instance come back within one lease.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;
const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

function redisSlots(link: RedisLink, leaseMs: number, fallback: TakeSlot): TakeSlot {
  const redis = link.client;
  let counter = 0;
  const instance = randomUUID();
  return async (holder, limit) => {
    const key = `gw-streams:${holder}`;
    const member = `${instance}:${++counter}`;
    const r = await link.run((c) => c.eval(ACQUIRE_SCRIPT, 1, key, limit, leaseMs, member));
    if (!r.ok) {
      if (link.policy === 'closed') throw limiterUnavailable();
      return fallback(holder, limit); // Redis unreachable, policy open: this instance's own count still bounds it
    }
    if (r.value !== 1) return null;
    // ignored: a missed renewal is retried a third of a lease later; the lease only lapses after three misses in a row
    const renew = setInterval(() => void redis.eval(RENEW_SCRIPT, 1, key, leaseMs, member).catch(() => undefined), leaseMs / 3);
    renew.unref();
    return () => {
      clearInterval(renew);
      // ignored: the lease (leaseMs) frees the slot if Redis misses this
      void redis.zrem(key, member).catch(() => undefined);
    };
  };
}

/**
 * Concurrent streams per key (`limits.concurrentStreamsPerKey`, 0 = unlimited; a key's own `concurrent_streams`
 * replaces it for that key) and per account (CONCURRENT_STREAMS_PER_ACCOUNT, every key of it together). With Redis
 * the counts are shared by every instance; otherwise they are this process's.
 */
export function createStreamSlots(
  limits: { concurrentStreamsPerKey: number },
  redis?: RedisLink,
  leaseMs = 60_000,
  account: Pick<AccountLimits, 'concurrentStreams'> = DEFAULT_ACCOUNT_LIMITS,
): StreamSlots {
  const memory = memorySlots();
  const take = redis ? redisSlots(redis, leaseMs, memory) : memory;
  return {
    async acquire(p) {
      const held: Array<() => void> = [];
      const release = () => held.splice(0).forEach((r) => r());
      const keyLimit = p.limits?.concurrentStreams ?? limits.concurrentStreamsPerKey;
      try {
        for (const [holder, limit, whose] of [
          [`account:${p.accountId}`, account.concurrentStreams, 'account'],
          [p.keyId, keyLimit, 'key'],
        ] as const) {
          if (!limit) continue;
          const slot = await take(holder, limit);
          if (!slot) throw tooManyStreams(limit, whose);
          held.push(slot);
        }
      } catch (e) {
        release();
        throw e;
      }
      return release;
    },
    close: async () => undefined,
  };
}

/**
 * The hook for streaming requests: every request gets a StreamAdmission on res.locals, which SseWriter calls just
 * before a stream's first byte. Only requests that really stream take a slot, whatever the format decides
 * streaming by (a body field or a path verb); a refusal is answered in the format of the path.
 */
export function streamAdmission(slots: StreamSlots, render: (path: string) => ErrorRenderer): RequestHandler {
  return (req, res, next) => {
    const admit: StreamAdmission = async () => {
      const principal = res.locals.principal as Principal | undefined;
      if (!principal) return true;
      try {
        const release = await slots.acquire(principal);
        if (res.closed) release();
        else res.once('close', release);
        return true;
      } catch (e) {
        sendError(res, e, render(req.path));
        return false;
      }
    };
    res.locals[STREAM_ADMISSION] = admit;
    next();
  };
}
