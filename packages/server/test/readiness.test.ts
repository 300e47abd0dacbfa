import { rmSync, writeFileSync } from 'node:fs';
import { startTestGateway } from './support/test-gateway';

describe('/readyz', () => {
  it('is never 200 while media work would fail: DATA_DIR no longer writable', async () => {
    const gw = await startTestGateway();
    try {
      const before = await fetch(`${gw.url}/readyz`);
      expect(before.status).toBe(200);
      expect(await before.json()).toEqual({ status: 'ready', checks: { database: 'ok', data_dir: 'ok' } });

      // the volume goes away: a file where the directory was, so no write under it can succeed
      rmSync(gw.dataDir, { recursive: true, force: true });
      writeFileSync(gw.dataDir, '');
      const after = await fetch(`${gw.url}/readyz`);
      expect(after.status).toBe(503);
      expect(await after.json()).toMatchObject({ status: 'not_ready', checks: { data_dir: 'not_writable' } });
    } finally {
      rmSync(gw.dataDir, { force: true });
      await gw.stop();
    }
  });
});
