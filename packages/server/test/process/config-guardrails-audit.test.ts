import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';

const ADMIN = 'admin-key-for-config-guardrails-audit';

const get = (gw: GatewayProcess, route: string) => fetch(`${gw.url}${route}`, { headers: { authorization: `Bearer ${ADMIN}` } });

const config = (mode: 'mask' | 'block') => ({
  providers: [{ id: 'sim', type: 'simulator' }],
  models: [{ id: 'sim-chat', kind: 'text', provider: 'sim' }],
  guardrails: [{ id: 'pii', type: 'pii', mode }],
  groups: [{ name: 'default', models: ['*'], guardrails: ['pii'] }],
});

describe('guardrails changed in the config file between two starts', () => {
  it('are audited (guardrails.import, authored by the file, before and after); the same file again writes nothing', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-config-guardrails-'));
    const file = path.join(dir, 'gateway.json');
    const env = { DATA_DIR: path.join(dir, 'data'), GATEWAY_CONFIG: file, GATEWAY_ADMIN_KEY: ADMIN };
    let gw: GatewayProcess | undefined;
    try {
      for (const mode of ['mask', 'mask', 'block'] as const) {
        writeFileSync(file, JSON.stringify(config(mode)));
        gw = await startGatewayProcess(env);
        if (mode === 'mask') expect((await gw.stop()) ?? 0).toBe(0);
      }
      const audit = await get(gw!, `/admin/audit?actor=${encodeURIComponent(`config_file:${file}`)}`);
      expect(audit.status).toBe(200);
      type Record = { action: string; target: unknown; before: unknown; after: unknown };
      const records = ((await audit.json()) as { data: Record[] }).data.filter((r) => r.action === 'guardrails.import');
      const mask = { definitions: [{ id: 'pii', type: 'pii', mode: 'mask' }], groups: { default: ['pii'] } };
      const block = { definitions: [{ id: 'pii', type: 'pii', mode: 'block' }], groups: { default: ['pii'] } };
      const changes = records.map((r) => [r.before, r.after]);
      expect(changes).toHaveLength(2);
      expect(changes).toEqual(
        expect.arrayContaining([
          [null, mask],
          [mask, block],
        ]),
      );
    } finally {
      await gw?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
