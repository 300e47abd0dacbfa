import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliProcess, runGatewayExpectingExit, startGatewayProcess } from '../support/gateway-process';

/** One writer per embedded (PGlite) DATA_DIR, with real processes: PGlite itself would let two corrupt it. */
describe('the embedded store has one writer', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('a second gateway on the same DATA_DIR stops at start-up naming the directory and the holder', async () => {
    const dir = freshDir();
    const first = await startGatewayProcess({ DATA_DIR: dir });
    try {
      const second = await runGatewayExpectingExit({ DATA_DIR: dir });
      expect(second.code).toBe(1);
      expect(second.output).toContain(dir);
      expect(second.output).toContain(`process ${first.proc.pid}`);
      expect(second.output).not.toMatch(/\n\s+at /);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
  }, 120_000);

  it('a lock left by a killed gateway is stale: the next one starts', async () => {
    const dir = freshDir();
    const first = await startGatewayProcess({ DATA_DIR: dir, GATEWAY_DEMO_KEY: 'sk-demo-key-for-the-lock-test' });
    await first.stop('SIGKILL');
    const second = await startGatewayProcess({ DATA_DIR: dir });
    try {
      expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('the CLI, which opens the store itself when no gateway runs, releases it when done', async () => {
    const dir = freshDir();
    expect(await runCliProcess(['accounts:create', 'acme'], { DATA_DIR: dir })).toMatchObject({ code: 0 });
    const gw = await startGatewayProcess({ DATA_DIR: dir });
    await gw.stop();
  }, 120_000);
});
