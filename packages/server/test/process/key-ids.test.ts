import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashApiKey } from '@gateway/core';
import { bootstrapConfigKeys } from '../../src/bootstrap';
import { runGatewayExpectingExit } from '../support/gateway-process';
import { ALPHA_KEY, startTestGateway } from '../support/test-gateway';

describe('key ids', () => {
  it('a config-file key gets a random id, not a prefix of its unsalted hash, and keeps it on every bootstrap', async () => {
    const gw = await startTestGateway({ listen: false });
    try {
      const [key] = await gw.stores.keys.listKeys('alpha');
      expect(key!.id).toMatch(/^key_[a-z0-9]{24}$/);
      expect(hashApiKey(ALPHA_KEY)).not.toContain(key!.id.slice(4, 12));
      // another instance bootstrapping the same file finds the key by its hash and names it alike
      await bootstrapConfigKeys(gw.stores, gw.config);
      expect((await gw.stores.keys.listKeys('alpha')).map((k) => k.id)).toEqual([key!.id]);
    } finally {
      await gw.stop();
    }
  }, 60_000);
});

describe('config-file keys', () => {
  it('a key with fewer than 16 characters after sk- stops start-up, naming the file and the field', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-short-key-'));
    const file = path.join(dir, 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({
        providers: [{ id: 'sim', type: 'simulator' }],
        models: [{ id: 'sim-chat', kind: 'text', provider: 'sim' }],
        groups: [{ name: 'default', models: ['*'] }],
        keys: [{ key: 'sk-short-key-01', account: 'a', group: 'default' }],
      }),
    );
    try {
      const { code, output } = await runGatewayExpectingExit({ DATA_DIR: dir, GATEWAY_CONFIG: file });
      expect(code).toBe(1);
      expect(output).toContain(file);
      expect(output).toContain('keys.0.key: too short');
      expect(output).not.toContain('sk-short-key-01');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
