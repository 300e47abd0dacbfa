import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compactionSecret } from '../src/wiring/compaction-secret';
import type { GatewayEnv } from '../src/gateway';

const envFor = (dataDir: string, inMemoryDatabase = false): GatewayEnv => ({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  publicBaseUrl: 'http://x',
  inMemoryDatabase,
});

describe('compactionSecret', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-secret-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('GATEWAY_SECRET wins', () => {
    expect(compactionSecret({ ...envFor(dir), secret: 'operator-secret-0123456789' })).toBe('operator-secret-0123456789');
  });

  it('otherwise one secret per data dir, created once, private to the owner, stable across starts', () => {
    const a = compactionSecret(envFor(dir));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(compactionSecret(envFor(dir))).toBe(a);
    expect(statSync(path.join(dir, 'compaction-secret')).mode & 0o077).toBe(0);
    const other = mkdtempSync(path.join(os.tmpdir(), 'gw-secret-'));
    try {
      expect(compactionSecret(envFor(other))).not.toBe(a);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('an in-memory database gets a fresh secret and writes nothing', () => {
    expect(compactionSecret(envFor(dir, true))).not.toBe(compactionSecret(envFor(dir, true)));
    expect(statSync(path.join(dir, 'compaction-secret'), { throwIfNoEntry: false })).toBeUndefined();
  });
});
