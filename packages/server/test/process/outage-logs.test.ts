import { randomBytes } from 'node:crypto';
import { describeWithService, eventually } from '@gateway/testkit';
import { startGatewayProcess } from '../support/gateway-process';
import { startTcpProxy } from '../support/tcp-proxy';
import { processSetup } from '../reliability/support/process-setup';
import { ALPHA_KEY } from '../support/test-gateway';

jest.setTimeout(240_000);

const chat = (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] }),
  }).then((r) => r.status);

interface Line {
  level: string;
  message: string;
  [field: string]: unknown;
}
const lines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = (ls: Line[], m: RegExp) => ls.filter((l) => m.test(l.message)).length;

/** What every outage's lines must hold: no stack, no line per connection, each retrying loop's outage said once. */
function expectQuietOutage(during: Line[], afterRestore: Line[]) {
  const all = [...during, ...afterRestore];
  for (const l of all) {
    expect(JSON.stringify(l)).not.toMatch(/\\n\s+at /); // no stack trace, whatever the field
    expect(l.message).not.toMatch(/Acquire connection error|Connection Error/);
  }
  // a retrying loop says it is failing once, and never that it succeeds before the dependency is back
  for (const what of ['video worker rounds', 'video housekeeping', 'config reload']) {
    expect(count(all, new RegExp(`^${what}: failing`))).toBeLessThanOrEqual(1);
    expect(count(during, new RegExp(`^${what}: succeeding again`))).toBe(0);
  }
  // the live-status feed's LISTEN retries every 5 s: an outage is one warning, however many retries fail
  expect(count(all, /^task change feed: LISTEN failed/)).toBeLessThanOrEqual(1);
  // config reload failures are not errors, and not one per poll
  expect(all.filter((l) => /config reload/.test(l.message) && l.level === 'error')).toEqual([]);
}

describeWithService(
  'TEST_DATABASE_URL',
  'outage logs (a gateway process, PostgreSQL and Redis behind TCP proxies that are cut)',
  (pgUrl) => {
    describeWithService('TEST_REDIS_URL', 'with Redis', (redisUrl) => {
      it('each outage is logged once when it starts and once when it ends, without stacks or a line per connection', async () => {
        const pg = new URL(pgUrl);
        const pgProxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
        const rd = new URL(redisUrl);
        const redisProxy = await startTcpProxy({ host: rd.hostname, port: Number(rd.port || 6379) });
        const viaProxy = new URL(pgUrl);
        viaProxy.host = `127.0.0.1:${pgProxy.port}`;
        const setup = await processSetup({ postgres: true });
        const gw = await startGatewayProcess({
          ...setup.env,
          DATABASE_URL: viaProxy.toString(),
          DATABASE_SCHEMA: `outlog_${randomBytes(4).toString('hex')}`,
          REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
          CONFIG_POLL_MS: '500',
          LOG_LEVEL: 'info',
        });
        try {
          expect(await chat(gw.url)).toBe(200);

          // PostgreSQL gone for a while, with traffic, config polls and worker rounds going on
          let mark = gw.output().length;
          await pgProxy.cut();
          await eventually(() => gw.output().slice(mark).includes('database unreachable'), 30_000);
          for (let i = 0; i < 6; i++) {
            await chat(gw.url);
            await sleep(1000);
          }
          const during = lines(gw.output().slice(mark));
          const restoredAt = gw.output().length;
          await pgProxy.restore();
          await eventually(() => gw.output().slice(restoredAt).includes('database reachable again'), 30_000);
          await eventually(async () => (await chat(gw.url)) === 200, 30_000);
          // the feed's next LISTEN retry (every 5 s) says it works again
          await eventually(() => gw.output().slice(restoredAt).includes('task change feed: LISTEN works again'), 30_000);
          await sleep(2000);
          const after = lines(gw.output().slice(restoredAt));
          expect(count([...during, ...after], /^database unreachable/)).toBe(1);
          expect(count([...during, ...after], /^database reachable again/)).toBe(1);
          expect(count(during, /^config reload: failing/)).toBe(1);
          expect(count([...during, ...after], /^task change feed: LISTEN works again/)).toBe(1);
          expectQuietOutage(during, after);

          // Redis gone: limits degrade (open policy), said once, and said once when it is back
          mark = gw.output().length;
          await redisProxy.cut();
          for (let i = 0; i < 4; i++) {
            expect(await chat(gw.url)).toBe(200);
            await sleep(1000);
          }
          const redisDown = lines(gw.output().slice(mark));
          const redisBackAt = gw.output().length;
          await redisProxy.restore();
          await eventually(() => gw.output().slice(redisBackAt).includes('redis reachable again'), 30_000);
          const redisAfter = lines(gw.output().slice(redisBackAt));
          expect(count([...redisDown, ...redisAfter], /^redis unreachable/)).toBe(1);
          expect(count([...redisDown, ...redisAfter], /^redis reachable again/)).toBe(1);
          expectQuietOutage(redisDown, redisAfter);
        } finally {
          await gw.stop('SIGKILL');
          await pgProxy.close();
          await redisProxy.close();
          await setup.cleanup();
        }
      });
    });
  },
);
