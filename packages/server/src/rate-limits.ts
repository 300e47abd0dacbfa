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

/** Per-key request rate: the key's own limit, else the gateway-wide one (read at every call: a catalogue reload changes `limits` in place). */
export function createKeyRateLimiter(limits: RateLimits, redis?: RedisLink): KeyRateLimiter {
  const counter = minuteCounter('gw-rpm', redis);
  return {
    async consume(p: Principal) {
      const limit = p.limits?.requestsPerMinute ?? limits.requestsPerMinutePerKey;
      if (!limit) return;
      const count = await counter.add(p.keyId);
      if (count.consumed > limit)
        throw new GatewayError('rate_limited', `Rate limit of ${limit} requests per minute for this key exceeded.`, {
          code: 'rate_limit_exceeded',
          retryAfterSeconds: retryAfter(count),
        });
    },
    async close() {
      return undefined;
    },
  };
}

/**
 * Tokens per minute for keys with a `tokens_per_minute` limit. A call's tokens are known only after it, so a key is
 * refused once the tokens of the current minute reached its limit (the call that crosses it completes, as credits'
 * post-paid text does); `record` adds what each finished call used (from its usage row).
 */
export function createTokenRateLimiter(redis?: RedisLink) {
  const counter = minuteCounter('gw-tpm', redis);
  /** keys authenticated here with a limit: only their usage is counted */
  const limited = new Map<string, number>();
  return {
    async check(p: Principal): Promise<void> {
      const limit = p.limits?.tokensPerMinute;
      if (!limit) {
        limited.delete(p.keyId);
        return;
      }
      if (limited.size > 100_000) limited.clear();
      limited.set(p.keyId, limit);
      const count = await counter.peek(p.keyId);
      if (count.consumed >= limit)
        throw new GatewayError('rate_limited', `Token rate limit of ${limit} tokens per minute for this key reached.`, {
          code: 'token_rate_limit_exceeded',
          retryAfterSeconds: retryAfter(count),
        });
    },
    /** The usage log, counting each row's tokens against its key's limit. */
    wrap(log: UsageLog): UsageLog {
      const count = (row: UsageRow) => {
        const tokens = (row.inputTokens ?? 0) + (row.outputTokens ?? 0);
        // ignored: the request is answered already; a count lost to a Redis outage only under-counts this minute
        if (row.keyId && tokens > 0 && limited.has(row.keyId)) void counter.add(row.keyId, tokens).catch(() => undefined);
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

function tooManyStreams(limit: number): GatewayError {
  return new GatewayError(
    'rate_limited',
    `This key already has ${limit} streams open, its limit of concurrent streams. Retry when one has ended.`,
    {
      code: 'too_many_concurrent_streams',
      retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
    },
  );
}

/** The key's own limit of concurrent streams, else the gateway-wide one (0 = unlimited). */
const streamLimitOf = (p: Principal, fallback: () => number) => p.limits?.concurrentStreams ?? fallback();

/** Counts in this process's memory. */
function memorySlots(defaultLimit: () => number): StreamSlots['acquire'] {
  const open = new Map<string, number>();
  return async (p) => {
    const limit = streamLimitOf(p, defaultLimit);
    if (!limit) return () => undefined;
    const n = open.get(p.keyId) ?? 0;
    if (n >= limit) throw tooManyStreams(limit);
    open.set(p.keyId, n + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const left = (open.get(p.keyId) ?? 1) - 1;
      if (left > 0) open.set(p.keyId, left);
      else open.delete(p.keyId);
    };
  };
}

/**
 * One sorted set per key in Redis: a member per open stream, scored by when its lease ends. A holder renews
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

function redisSlots(
  defaultLimit: () => number,
  link: RedisLink,
  leaseMs: number,
  fallback: StreamSlots['acquire'],
): StreamSlots['acquire'] {
  const redis = link.client;
  let counter = 0;
  const instance = randomUUID();
  return async (p) => {
    const limit = streamLimitOf(p, defaultLimit);
    if (!limit) return () => undefined;
    const key = `gw-streams:${p.keyId}`;
    const member = `${instance}:${++counter}`;
    const r = await link.run((c) => c.eval(ACQUIRE_SCRIPT, 1, key, limit, leaseMs, member));
    if (!r.ok) {
      if (link.policy === 'closed') throw limiterUnavailable();
      return fallback(p); // Redis unreachable, policy open: this instance's own count still bounds the key
    }
    if (r.value !== 1) throw tooManyStreams(limit);
    // ignored: a missed renewal is retried a third of a lease later; the lease only lapses after three misses in a row
    const renew = setInterval(() => void redis.eval(RENEW_SCRIPT, 1, key, leaseMs, member).catch(() => undefined), leaseMs / 3);
    renew.unref();
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      clearInterval(renew);
      // ignored: the lease (leaseMs) frees the slot if Redis misses this
      void redis.zrem(key, member).catch(() => undefined);
    };
  };
}

/**
 * Concurrent streams per key (`limits.concurrentStreamsPerKey`, 0 = unlimited; a key's own `concurrent_streams`
 * replaces it for that key). With Redis the count is shared by every instance; otherwise it is this process's.
 */
export function createStreamSlots(limits: { concurrentStreamsPerKey: number }, redis?: RedisLink, leaseMs = 60_000): StreamSlots {
  const limit = () => limits.concurrentStreamsPerKey;
  const memory = memorySlots(limit);
  if (!redis) return { acquire: memory, close: async () => undefined };
  return { acquire: redisSlots(limit, redis, leaseMs, memory), close: async () => undefined };
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
