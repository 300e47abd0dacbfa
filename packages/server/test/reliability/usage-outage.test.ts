import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { eventually } from '@gateway/testkit';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { ownPostgresAvailable, startOwnPostgres, type OwnPostgres } from '../support/own-postgres';
import { ALPHA_KEY, testConfigFile, withPricing } from '../support/test-gateway';

jest.setTimeout(400_000);

/** 10 words of prompt: a short answer (4 parts); 12 or more: a long one (8 parts). Parts come 1.5 s apart. */
const SHORT = 'hi';
const LONG = 'tell me a long story about a lighthouse keeper and the sea at night';

interface OpenStream {
  requestId: string;
  /** resolves with the whole body once the stream ended (rejects if the connection was cut) */
  done: Promise<string>;
  finished(): boolean;
}

/** A streamed chat request, as a client reads it: resolved once its first part arrived. */
async function openStream(gw: GatewayProcess, prompt: string): Promise<OpenStream> {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-chat', stream: true, messages: [{ role: 'user', content: prompt }] }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  let ended = false;
  const done = (async () => {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      text += decoder.decode(r.value);
    }
    ended = true;
    return text;
  })();
  done.catch(() => undefined); // awaited by the test later; this only keeps an early failure from going unhandled
  return { requestId: res.headers.get('x-request-id')!, done, finished: () => ended };
}

async function plainRequest(gw: GatewayProcess): Promise<string> {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('x-request-id')!;
}

async function pendingGauge(gw: GatewayProcess): Promise<number> {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  return Number(/^gateway_usage_rows_pending (\S+)$/m.exec(text)?.[1] ?? NaN);
}

(ownPostgresAvailable ? describe : describe.skip)('usage rows survive a PostgreSQL outage and a SIGKILL (a cluster of its own)', () => {
  let pg: OwnPostgres;
  let db: Knex;
  let dir: string;
  const gateways: GatewayProcess[] = [];

  beforeAll(async () => {
    pg = await startOwnPostgres();
    db = knex({ client: 'pg', connection: pg.url, pool: { min: 0, max: 2 } });
    dir = mkdtempSync(path.join(os.tmpdir(), 'gw-usage-outage-'));
    const config = withPricing(testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 1500 } }] }), {
      'sim-chat': { inputPerMillionTokens: 1000, outputPerMillionTokens: 2000 },
    });
    writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify(config));
  });
  afterAll(async () => {
    for (const g of gateways) await g.stop('SIGKILL');
    await db?.destroy();
    pg?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const gw = await startGatewayProcess({
      GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
      DATA_DIR: dir,
      DATABASE_URL: pg.url,
      DATABASE_SCHEMA: 'gw',
      LOG_LEVEL: 'warn',
    });
    gateways.push(gw);
    return gw;
  };

  /** Each request's usage rows, by request id (the test asks for exactly one each). */
  const rowsOf = async (ids: string[]) => db.withSchema('gw').from('usage_log').whereIn('request_id', ids).select('*');

  it('answered during the outage: written once when PostgreSQL is back; killed past its grace: replayed at the next start', async () => {
    const first = await start();
    const answered = [await plainRequest(first), await plainRequest(first)];

    // round 1: streams answered while PostgreSQL is down wait in the spool, and the live process writes them later
    const round1 = await Promise.all([openStream(first, SHORT), openStream(first, SHORT), openStream(first, SHORT)]);
    pg.stop();
    expect(round1.some((s) => s.finished())).toBe(false); // the answers end after the database went away
    await Promise.all(round1.map((s) => s.done));
    answered.push(...round1.map((s) => s.requestId));
    await eventually(() => expect(first.output()).toMatch(/usage rows not written/), 30_000);
    const failed = first
      .output()
      .split('\n')
      .find((l) => l.includes('usage rows not written'))!;
    for (const s of round1) expect(failed + first.output()).toContain(s.requestId);
    expect(await pendingGauge(first)).toBeGreaterThanOrEqual(3);
    pg.start();
    await eventually(
      async () => {
        const rows = await rowsOf(answered);
        expect(rows.map((r) => r.request_id).sort()).toEqual([...answered].sort());
      },
      60_000,
      500,
    );
    await eventually(async () => expect(await pendingGauge(first)).toBe(0), 30_000);

    // round 2: rows answered while it is down, and a priced stream still open, when the process is killed
    const round2 = await Promise.all([openStream(first, SHORT), openStream(first, SHORT)]);
    const open = await openStream(first, LONG);
    pg.stop();
    await Promise.all(round2.map((s) => s.done));
    expect(open.finished()).toBe(false);
    await first.stop('SIGKILL');
    answered.push(...round2.map((s) => s.requestId));
    pg.start();

    await start();
    await eventually(
      async () => {
        const rows = await rowsOf([...answered, open.requestId]);
        expect(rows.map((r) => r.request_id).sort()).toEqual([...answered, open.requestId].sort());
      },
      60_000,
      500,
    );
    const [interrupted] = await rowsOf([open.requestId]);
    expect(interrupted).toMatchObject({ status: 'interrupted', error_code: 'gateway_stopped' });
    expect(Number(interrupted.credits)).toBeGreaterThan(0);

    // every priced row is charged exactly once: one ledger line names it, none twice
    const rows = await rowsOf([...answered, open.requestId]);
    const ledger = await db
      .withSchema('gw')
      .from('credit_ledger')
      .whereIn(
        'usage_row_id',
        rows.map((r) => r.row_id),
      )
      .select('usage_row_id', 'amount');
    expect(ledger.map((l) => l.usage_row_id).sort()).toEqual(rows.map((r) => r.row_id).sort());
    const charged = ledger.reduce((n, l) => n + Number(l.amount), 0);
    const quota = await db.withSchema('gw').from('account_quotas').where({ account_id: 'alpha' }).first();
    expect(Number(quota.credits_used)).toBeCloseTo(charged, 6);
  });
});
