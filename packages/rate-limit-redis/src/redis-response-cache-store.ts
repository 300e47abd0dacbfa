import { randomUUID } from 'node:crypto';
import type { CachedAnswer, CachePurge, ResponseCacheStore } from '@gateway/core';
import type { RedisLink } from './redis-link';

/**
 * Keys under one prefix: `e:<key>` the entry (a string expiring at its expiresAt), `idx` each entry's account, model
 * and size, `order` entries by insertion (eviction takes the oldest), `exp` entries by expiry (swept on put), `bytes`
 * the total size, `a:<account>` and `m:<model>` the sets a purge reads, `lock:<key>` the claim of the call that leads
 * the key's single flight across instances (its token, expiring).
 */
const DROP = `
local function drop(p, k)
  local meta = redis.call('HGET', p .. 'idx', k)
  if not meta then return 0 end
  local m = cjson.decode(meta)
  redis.call('SREM', p .. 'a:' .. m.a, k)
  redis.call('SREM', p .. 'm:' .. m.m, k)
  redis.call('ZREM', p .. 'order', k)
  redis.call('ZREM', p .. 'exp', k)
  redis.call('HDEL', p .. 'idx', k)
  redis.call('DECRBY', p .. 'bytes', m.b)
  return redis.call('DEL', p .. 'e:' .. k)
end
`;

/** ARGV: prefix, key, entry, bytes, expiresAtMs, nowMs, maxBytes, account, model */
const PUT = `${DROP}
local p, k = ARGV[1], ARGV[2]
local size, expires, now, cap = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
drop(p, k)
for _, old in ipairs(redis.call('ZRANGEBYSCORE', p .. 'exp', '-inf', now, 'LIMIT', 0, 100)) do drop(p, old) end
if expires <= now or size > cap then return 0 end
redis.call('SET', p .. 'e:' .. k, ARGV[3], 'PXAT', expires)
redis.call('HSET', p .. 'idx', k, cjson.encode({ a = ARGV[8], m = ARGV[9], b = size }))
redis.call('SADD', p .. 'a:' .. ARGV[8], k)
redis.call('SADD', p .. 'm:' .. ARGV[9], k)
redis.call('ZADD', p .. 'order', redis.call('INCR', p .. 'seq'), k)
redis.call('ZADD', p .. 'exp', expires, k)
local total = redis.call('INCRBY', p .. 'bytes', size)
while total > cap do
  local oldest = redis.call('ZRANGE', p .. 'order', 0, 0)[1]
  if not oldest then break end
  drop(p, oldest)
  total = tonumber(redis.call('GET', p .. 'bytes'))
end
return 1`;

/** ARGV: prefix, model or '', account or '', batch. Drops up to a batch; answers {live entries dropped, matches seen}. */
const PURGE = `${DROP}
local p, model, account, batch = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local keys
if model ~= '' and account ~= '' then
  keys = redis.call('SINTER', p .. 'm:' .. model, p .. 'a:' .. account)
elseif model ~= '' then
  keys = redis.call('SRANDMEMBER', p .. 'm:' .. model, batch)
elseif account ~= '' then
  keys = redis.call('SRANDMEMBER', p .. 'a:' .. account, batch)
else
  keys = redis.call('ZRANGE', p .. 'order', 0, batch - 1)
end
local gone, seen = 0, 0
for _, k in ipairs(keys) do
  if seen >= batch then break end
  seen = seen + 1
  gone = gone + drop(p, k)
end
return { gone, seen }`;

const PURGE_BATCH = 500;

/** ARGV: lock key, token. Deletes the claim only while it is still this call's. */
const RELEASE = `if redis.call('GET', ARGV[1]) == ARGV[2] then return redis.call('DEL', ARGV[1]) end return 0`;

export interface RedisResponseCacheOptions {
  /** RESPONSE_CACHE_MAX_BYTES: the most the entries' values may hold together */
  maxBytes: number;
  /** where this cache's keys live in Redis (tests give each store its own) */
  prefix?: string;
  now?: () => number;
}

interface StoredEntry {
  v: string;
  a: string;
  k: string | null;
  m: string;
  x: number;
}

/**
 * The response cache on Redis, shared by every instance. A get or put that Redis cannot answer within the link's
 * budget is a miss or a skipped store (the request goes upstream as without a cache); a purge that fails throws, so
 * the admin sees it.
 */
export function redisResponseCacheStore(link: RedisLink, options: RedisResponseCacheOptions): ResponseCacheStore {
  const prefix = options.prefix ?? 'gw:rc:';
  const now = options.now ?? Date.now;
  return {
    async get(key) {
      const r = await link.run((redis) => redis.get(`${prefix}e:${key}`));
      if (!r.ok || r.value === null) return undefined;
      const e = JSON.parse(r.value) as StoredEntry;
      if (e.x <= now()) return undefined;
      return { value: e.v, accountId: e.a, keyId: e.k, model: e.m, expiresAt: new Date(e.x) };
    },
    async put(key, answer: CachedAnswer) {
      const x = answer.expiresAt.getTime();
      const entry: StoredEntry = { v: answer.value, a: answer.accountId, k: answer.keyId, m: answer.model, x };
      const bytes = Buffer.byteLength(answer.value);
      await link.run((redis) =>
        redis.eval(PUT, 0, prefix, key, JSON.stringify(entry), bytes, x, now(), options.maxBytes, answer.accountId, answer.model),
      );
    },
    async claim(key, ms) {
      const token = randomUUID();
      const r = await link.run((redis) => redis.set(`${prefix}lock:${key}`, token, 'PX', ms, 'NX'));
      if (!r.ok) return ''; // Redis cannot tell: lead without a claim, as without single flight across instances
      return r.value === 'OK' ? token : undefined;
    },
    async claimed(key) {
      const r = await link.run((redis) => redis.exists(`${prefix}lock:${key}`));
      return r.ok && r.value === 1;
    },
    async release(key, token) {
      await link.run((redis) => redis.eval(RELEASE, 0, `${prefix}lock:${key}`, token));
    },
    async purge(filter: CachePurge) {
      let gone = 0;
      for (;;) {
        const r = await link.run(
          (redis) => redis.eval(PURGE, 0, prefix, filter.model ?? '', filter.accountId ?? '', PURGE_BATCH) as Promise<[number, number]>,
        );
        if (!r.ok) throw new Error('Redis did not answer the cache purge; entries may remain.');
        gone += r.value[0];
        if (r.value[1] < PURGE_BATCH) return gone;
      }
    },
  };
}
