import http from 'node:http';
import { describeWithService, eventually } from '@gateway/testkit';
import { runGatewayExpectingExit, startGatewayProcess } from '../support/gateway-process';
import { processSetup } from '../reliability/support/process-setup';
import { gatewayWorkersOf } from '../support/process-tree';
import { ALPHA_KEY } from '../support/test-gateway';

jest.setTimeout(240_000);

/** One chat call on a connection of its own, so the primary hands each to the next worker. */
function chatOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/v1/chat/completions`,
      { method: 'POST', agent: false, headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] }));
  });
}

describe('WORKERS=N refusals', () => {
  it.each([
    [{ WORKERS: '2' }, /WORKERS=2 needs DATABASE_URL/],
    [{ WORKERS: '2', DATABASE_URL: 'postgres://127.0.0.1:1/none' }, /WORKERS=2 needs REDIS_URL/],
    [{ WORKERS: 'many' }, /WORKERS must be a whole number/],
  ])('%j stops start-up with exit code 1 naming the cause', async (env, message) => {
    const { code, output } = await runGatewayExpectingExit({ ...env, REDIS_URL: '', DATA_DIR: '/tmp/gw-cluster-never-opened' });
    expect(code).toBe(1);
    expect(output).toMatch(message);
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describeWithService('TEST_DATABASE_URL', 'WORKERS=2 on PostgreSQL', () => {
  describeWithService('TEST_REDIS_URL', 'with Redis', (redisUrl) => {
    it('serves from two worker processes, replaces one that dies, and stops whole on SIGTERM', async () => {
      const setup = await processSetup({ postgres: true });
      const gw = await startGatewayProcess({ ...setup.env, WORKERS: '2', REDIS_URL: redisUrl, LOG_LEVEL: 'info' });
      try {
        const primary = gw.proc.pid!;
        await eventually(() => gw.output().includes('cluster started: every worker listens'), 60_000);
        expect(gatewayWorkersOf(primary)).toHaveLength(2);
        // each request line names the worker that wrote it: both serve (connections are handed out in turn)
        await eventually(async () => {
          const statuses = await Promise.all(Array.from({ length: 10 }, () => chatOnNewConnection(gw.url)));
          expect(statuses).toEqual(Array(10).fill(200));
          return servingPids(gw.output()).size === 2;
        }, 60_000);
        expect([...servingPids(gw.output())].sort()).toEqual(gatewayWorkersOf(primary).sort());

        const [victim] = gatewayWorkersOf(primary);
        process.kill(victim!, 'SIGKILL');
        await eventually(() => gatewayWorkersOf(primary).length === 2 && !gatewayWorkersOf(primary).includes(victim!), 60_000);
        // the primary's log line reaches this process through a pipe, maybe after the new worker is already visible
        await eventually(() => gw.output().includes('worker exited; starting another'), 60_000);
        await eventually(async () => (await chatOnNewConnection(gw.url)) === 200, 60_000);

        expect(await gw.stop('SIGTERM')).toBe(0);
        expect(gatewayWorkersOf(primary)).toEqual([]);
      } finally {
        await gw.stop('SIGKILL');
        await setup.cleanup();
      }
    });
  });
});

function servingPids(output: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.includes('"/v1/chat/completions"')) continue;
    try {
      const pid = (JSON.parse(line) as { pid?: number }).pid;
      if (pid) pids.add(pid);
    } catch {
      // not a JSON line
    }
  }
  return pids;
}
