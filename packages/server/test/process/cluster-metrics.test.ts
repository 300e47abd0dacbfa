import http from 'node:http';
import { describeWithService, eventually } from '@gateway/testkit';
import { startGatewayProcess } from '../support/gateway-process';
import { processSetup } from '../reliability/support/process-setup';
import { gatewayWorkersOf } from '../support/process-tree';
import { ALPHA_KEY } from '../support/test-gateway';

jest.setTimeout(240_000);

/** One request on a connection of its own, so the primary hands each to the next worker. */
function onNewConnection(url: string, method: 'GET' | 'POST', path: string, body?: object): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      { method, agent: false, headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const chat = (url: string) =>
  onNewConnection(url, 'POST', '/v1/chat/completions', { model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] });

/** Every sample of `name` in an exposition, with its labels. */
function samples(text: string, name: string): Array<{ labels: string; value: number }> {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => {
      const m = /^[^{ ]+(\{.*\})?\s+(\S+)$/.exec(l)!;
      return { labels: m[1] ?? '', value: Number(m[2]) };
    });
}

/** The chat answers counted in one scrape, summed over whatever series carry them. */
const chatAnswers = (text: string) =>
  samples(text, 'gateway_requests_total')
    .filter((s) => s.labels.includes('format="openai-chat"') && s.labels.includes('status="200"'))
    .reduce((n, s) => n + s.value, 0);

describeWithService('TEST_DATABASE_URL', 'WORKERS=2: /metrics', () => {
  describeWithService('TEST_REDIS_URL', 'with Redis', (redisUrl) => {
    it('one scrape counts every worker’s requests once, and the counts survive a worker’s death', async () => {
      const setup = await processSetup({ postgres: true });
      const gw = await startGatewayProcess({ ...setup.env, WORKERS: '2', REDIS_URL: redisUrl, LOG_LEVEL: 'info' });
      try {
        await eventually(() => gw.output().includes('cluster started: every worker listens'), 60_000);
        const N = 12;
        const statuses = await Promise.all(Array.from({ length: N }, () => chat(gw.url)));
        expect(statuses.map((s) => s.status)).toEqual(Array(N).fill(200));
        // both workers served some of them (connections are handed out in turn)
        const servers = new Set(
          gw
            .output()
            .split('\n')
            .filter((l) => l.includes('"/v1/chat/completions"'))
            .map((l) => (JSON.parse(l) as { pid: number }).pid),
        );
        expect(servers.size).toBe(2);

        // the request line and its count are written as the answer closes: a count may trail the answer by a moment
        await eventually(async () => chatAnswers((await onNewConnection(gw.url, 'GET', '/metrics')).text) === N, 30_000);
        // each scrape lands on either worker (a connection of its own); each answers for both, every time
        let scrape = '';
        for (let i = 0; i < 4; i++) {
          const res = await onNewConnection(gw.url, 'GET', '/metrics');
          expect(res.status).toBe(200);
          scrape = res.text;
          expect(chatAnswers(scrape)).toBe(N);
        }
        // per-worker state carries a worker label; what the instance shares does not
        const workerLabels = new Set(samples(scrape, 'process_resident_memory_bytes').map((s) => /worker="(\d+)"/.exec(s.labels)?.[1]));
        expect(workerLabels.size).toBe(2);
        expect(workerLabels.has(undefined)).toBe(false);
        expect(samples(scrape, 'gateway_active_streams')).toEqual([{ labels: '', value: 0 }]);
        expect(samples(scrape, 'gateway_requests_total').every((s) => !s.labels.includes('worker='))).toBe(true);

        // a worker killed: its counts stay with the primary, so the total never goes backwards
        const primary = gw.proc.pid!;
        const [victim] = gatewayWorkersOf(primary);
        process.kill(victim!, 'SIGKILL');
        await eventually(() => gatewayWorkersOf(primary).length === 2 && !gatewayWorkersOf(primary).includes(victim!), 60_000);
        await eventually(async () => (await chat(gw.url)).status === 200, 60_000);
        const more = 5;
        await Promise.all(Array.from({ length: more - 1 }, () => chat(gw.url)));
        await eventually(async () => chatAnswers((await onNewConnection(gw.url, 'GET', '/metrics')).text) === N + more, 30_000);
        for (let i = 0; i < 3; i++) expect(chatAnswers((await onNewConnection(gw.url, 'GET', '/metrics')).text)).toBe(N + more);
        expect(await gw.stop('SIGTERM')).toBe(0);
      } finally {
        await gw.stop('SIGKILL');
        await setup.cleanup();
      }
    });
  });
});
