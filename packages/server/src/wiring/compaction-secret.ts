import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GatewayEnv } from '../gateway';

/**
 * The key that seals responses compaction items. GATEWAY_SECRET wins (set it when several instances
 * share one database); otherwise one is generated once per data directory, so items survive restarts.
 * An in-memory database keeps nothing, so neither does its secret.
 */
export function compactionSecret(env: GatewayEnv): string {
  if (env.secret) return env.secret;
  if (env.inMemoryDatabase) return randomBytes(32).toString('hex');
  const file = path.resolve(env.dataDir, 'compaction-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 16) return existing;
  } catch {
    // first start: fall through and create it
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
