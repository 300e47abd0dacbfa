import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GatewayError, type Principal } from '@gateway/core';
import { sendError, STREAM_ADMISSION, type ErrorRenderer, type StreamAdmission } from '@gateway/http-kit';
import { limiterUnavailable, type RedisLink } from './redis-link';

export interface RateLimits {
  /** requests per minute per key; 0 = unlimited */
  requestsPerMinutePerKey: number;
}

export interface KeyRateLimiter {
  consume(principal: Principal): Promise<void>;
  close(): Promise<void>;
}

function rateLimited(limits: RateLimits, e: RateLimiterRes): GatewayError {
  return new GatewayError('rate_limited', `Rate limit of ${limits.requestsPerMinutePerKey} requests per minute for this key exceeded.`, {
    code: 'rate_limit_exceeded',
    retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)),
  });
}

/** Resolves with the refusal instead of rejecting, so only an outage is an error. */
async function consumeOrRefusal(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (e) {
    if (e instanceof RateLimiterRes) return e;
    throw e;
  }
}

/**
 * Per-key request rate. With Redis the counters are shared, so the limit holds across instances; otherwise in this
 * process's memory. While Redis cannot answer, the link's policy decides: open counts in memory here, closed refuses.
 */
export function createKeyRateLimiter(limits: RateLimits, redis?: RedisLink): KeyRateLimiter {
  if (!limits.requestsPerMinutePerKey) return { consume: async () => undefined, close: async () => undefined };
  const opts = { points: limits.requestsPerMinutePerKey, duration: 60, keyPrefix: 'gw-rpm' };
  const memory = new RateLimiterMemory(opts);
  const shared = redis && new RateLimiterRedis({ ...opts, storeClient: redis.client, rejectIfRedisNotReady: true });
  return {
    async consume(p: Principal) {
      let refusal: RateLimiterRes | null;
      if (redis && shared) {
        const r = await redis.run(() => consumeOrRefusal(shared, p.keyId));
        if (r.ok) refusal = r.value;
        else if (redis.policy === 'closed') throw limiterUnavailable();
        else refusal = await consumeOrRefusal(memory, p.keyId);
      } else refusal = await consumeOrRefusal(memory, p.keyId);
      if (refusal) throw rateLimited(limits, refusal);
    },
    async close() {
      return undefined;
    },
  };
}

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

/** Counts in this process's memory. */
function memorySlots(limit: number): StreamSlots['acquire'] {
  const open = new Map<string, number>();
  return async (p) => {
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

function redisSlots(limit: number, link: RedisLink, leaseMs: number, fallback: StreamSlots['acquire']): StreamSlots['acquire'] {
  const redis = link.client;
  let counter = 0;
  const instance = randomUUID();
  return async (p) => {
    const key = `gw-streams:${p.keyId}`;
    const member = `${instance}:${++counter}`;
    const r = await link.run((c) => c.eval(ACQUIRE_SCRIPT, 1, key, limit, leaseMs, member));
    if (!r.ok) {
      if (link.policy === 'closed') throw limiterUnavailable();
      return fallback(p); // Redis unreachable, policy open: this instance's own count still bounds the key
    }
    if (r.value !== 1) throw tooManyStreams(limit);
    const renew = setInterval(() => void redis.eval(RENEW_SCRIPT, 1, key, leaseMs, member).catch(() => undefined), leaseMs / 3);
    renew.unref();
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      clearInterval(renew);
      void redis.zrem(key, member).catch(() => undefined);
    };
  };
}

/**
 * Concurrent streams per key (`limits.concurrentStreamsPerKey`, 0 = unlimited). With Redis the count is shared by
 * every instance; otherwise it is this process's.
 */
export function createStreamSlots(limit: number, redis?: RedisLink, leaseMs = 60_000): StreamSlots {
  if (!limit) return { acquire: async () => () => undefined, close: async () => undefined };
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
