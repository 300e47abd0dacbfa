import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { eventually, externalServiceUrl } from '@gateway/testkit';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { ALPHA_KEY, testConfigFile, withPricing } from '../support/test-gateway';

jest.setTimeout(300_000);

const pgUrl = externalServiceUrl('TEST_DATABASE_URL');
const redisUrl = externalServiceUrl('TEST_REDIS_URL');

/** The pid of the process holding the server side of the client's connection (the worker serving it). */
function serverPid(serverPort: number, clientPort: number): number {
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( sport = :${serverPort} and dport = :${clientPort} )`], {
    encoding: 'utf8',
  });
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid) throw new Error(`no process holds 127.0.0.1:${serverPort} <- :${clientPort}:\n${out}`);
  return Number(pid);
}

(pgUrl && redisUrl ? describe : describe.skip)('WORKERS=2: a worker SIGKILLed in the middle of a priced stream', () => {
  let dir: string;
  let gw: GatewayProcess | undefined;
  let db: Knex;
  const schema = `usage_kill_${randomBytes(4).toString('hex')}`;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-usage-kill-'));
    const config = withPricing(testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 1500 } }] }), {
      'sim-chat': { inputPerMillionTokens: 1000, outputPerMillionTokens: 2000 },
    });
    writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify(config));
    db = knex({ client: 'pg', connection: pgUrl!, pool: { min: 0, max: 2 } });
  });
  afterAll(async () => {
    await gw?.stop('SIGKILL');
    await db.raw(`drop schema if exists "${schema}" cascade`);
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves a row recorded before the first byte: a sibling settles it (interrupted, charged once)', async () => {
    gw = await startGatewayProcess({
      GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
      DATA_DIR: dir,
      DATABASE_URL: pgUrl!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl!,
      WORKERS: '2',
      LOG_LEVEL: 'info',
    });
    await eventually(() => expect(gw!.output()).toMatch(/cluster started/), 120_000, 200);
    const port = Number(new URL(gw.url).port);

    // a priced stream: its first part arrives, then the worker serving it is killed
    const opened = await new Promise<{ requestId: string; clientPort: number; ended: Promise<void> }>((resolve, reject) => {
      const req = http.request(
        `${gw!.url}/v1/chat/completions`,
        { method: 'POST', headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' } },
        (res) => {
          expect(res.statusCode).toBe(200);
          const ended = new Promise<void>((done) => res.on('close', () => done()));
          res.once('data', () => resolve({ requestId: String(res.headers['x-request-id']), clientPort: req.socket!.localPort!, ended }));
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          model: 'sim-chat',
          stream: true,
          messages: [{ role: 'user', content: 'tell me a long story about a lighthouse keeper and the sea at night' }],
        }),
      );
    });
    const worker = serverPid(port, opened.clientPort);
    expect(worker).not.toBe(gw.proc.pid);
    process.kill(worker, 'SIGKILL');
    await opened.ended;

    const rowsOf = () => db.withSchema(schema).from('usage_log').where({ request_id: opened.requestId }).select('*');
    await eventually(async () => expect(await rowsOf()).toHaveLength(1), 90_000, 500);
    const [row] = await rowsOf();
    expect(row).toMatchObject({ status: 'interrupted', error_code: 'gateway_stopped', model: 'sim-chat', account_id: 'alpha' });
    expect(Number(row.credits)).toBeGreaterThan(0);
    const ledger = await db.withSchema(schema).from('credit_ledger').where({ usage_row_id: row.row_id }).select('amount');
    expect(ledger.map((l) => Number(l.amount))).toEqual([Number(row.credits)]);
    expect(gw.output()).toMatch(/worker exited; starting another/);
    expect(await gw.stop('SIGTERM')).toBe(0);
  });
});
