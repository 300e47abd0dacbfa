import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';

const KEY = 'sk-config-file-key-restart-0001';
const ADMIN = 'admin-key-for-config-keys-process';

const get = (gw: GatewayProcess, route: string, key: string) => fetch(`${gw.url}${route}`, { headers: { authorization: `Bearer ${key}` } });

describe('a rotated config-file key after a real restart', () => {
  it('main.ts started again over the same DATA_DIR and config file does not bring the rotated-away secret back', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-config-keys-'));
    const file = path.join(dir, 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({
        providers: [{ id: 'sim', type: 'simulator' }],
        models: [{ id: 'sim-chat', kind: 'text', provider: 'sim' }],
        groups: [{ name: 'default', models: ['*'] }],
        keys: [{ key: KEY, account: 'acme', group: 'default' }],
      }),
    );
    const env = { DATA_DIR: path.join(dir, 'data'), GATEWAY_CONFIG: file, GATEWAY_ADMIN_KEY: ADMIN };
    let gw = await startGatewayProcess(env);
    try {
      const [key] = ((await (await get(gw, '/admin/keys?account=acme', ADMIN)).json()) as { data: Array<{ id: string }> }).data;
      const rotated = await fetch(`${gw.url}/v1/keys/${key!.id}/rotate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ grace_seconds: 0 }),
      });
      expect(rotated.status).toBe(200);
      const next = ((await rotated.json()) as { key: string }).key;
      expect((await gw.stop()) ?? 0).toBe(0);

      gw = await startGatewayProcess(env);
      expect((await get(gw, '/v1/models', KEY)).status).toBe(401);
      expect((await get(gw, '/v1/models', next)).status).toBe(200);
      const audit = await get(gw, `/admin/audit?actor=${encodeURIComponent(`config_file:${file}`)}`, ADMIN);
      const records = ((await audit.json()) as { data: Array<{ action: string }> }).data.map((r) => r.action);
      // the first start made the account and the key, the second nothing
      expect(records.filter((a) => a !== 'config.import').sort()).toEqual(['account.create', 'key.create']);
    } finally {
      await gw.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
