import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeProcess, type FakeProcess } from '@gateway/provider-kit/testing';
import { INBOUND_FORMATS, inbound, settle } from '../support/upstream-video-gateways';
import { runGatewayBin } from '../support/gateway-process';
import { startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Issue 27's proof for video: `npx gateway adapter:new --kind video` in a temporary directory outside packages/,
 * `npx gateway adapter:test` passes on it, and a started gateway (worker running) serves the three video formats
 * through it by a config entry naming the module.
 */
const UPSTREAM_KEY = 'acme-video-upstream-key-0123456789';
/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, pollMinMs: 50, pollMaxMs: 150 };

let dir: string;
let pkg: string;
let fake: FakeProcess;
let gw: TestGateway;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'outside-video-adapter-'));
  pkg = path.join(dir, 'acme-video');
  expect(await runGatewayBin(['adapter:new', pkg, '--kind', 'video'])).toMatchObject({ code: 0 });
  fake = await startFakeProcess(pkg, ['--key', UPSTREAM_KEY]);
  const base = testConfigFile();
  gw = await startTestGateway({
    env: { videoWorker: WORKER },
    config: {
      ...base,
      providers: [
        ...base.providers,
        { id: 'acme-video', module: path.join(pkg, 'adapter.mjs'), apiKey: UPSTREAM_KEY, options: { baseUrl: fake.url } },
      ],
      models: [
        ...base.models,
        { id: 'acme-video', kind: 'video', family: '2.0', tier: 'standard', provider: 'acme-video', upstreamModel: 'acme-v1' },
      ],
    },
  });
  await gw.startBackground();
});
afterAll(async () => {
  await gw?.stop();
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('the scaffolded video package passes the conformance kit: one line per suite, exit 0', async () => {
  const r = await runGatewayBin(['adapter:test', pkg]);
  const lines = r.out.trim().split('\n');
  expect(lines.filter((l) => l.startsWith('FAIL '))).toEqual([]);
  expect(lines.filter((l) => l.startsWith('PASS '))).toHaveLength(6);
  expect(r.code).toBe(0);
});

it.each(INBOUND_FORMATS)(
  '%s: a task is submitted once through the outside adapter, succeeds, and its content is the upstream file',
  async (format) => {
    const client = inbound(format, gw.url);
    const created = await client.create('acme-video', `a kite via ${format}`);
    expect(created.status).toBe(200);
    const done = await settle(gw.url, created.id, 30_000);
    expect(done).toMatchObject({ status: 'succeeded' });
    const content = await client.content(created.id);
    expect(content.status).toBe(200);
    expect(content.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const log = (await fake.control('/__fake/log')) as { jobs: Array<{ id: string; key: string; body: { prompt: string } }> };
    const jobs = log.jobs.filter((j) => j.body.prompt === `a kite via ${format}`);
    // exactly one upstream job for the task, keyed by it
    expect(jobs).toHaveLength(1);
    expect(content.bytes.toString('latin1')).toContain(`acme-video:${jobs[0]!.id}`);
  },
);

it('a job the upstream fails ends failed for the client, without the upstream key', async () => {
  await fake.control('/__fake/next', { fail: true });
  const client = inbound('openai', gw.url);
  const created = await client.create('acme-video', 'a kite that fails');
  const done = await settle(gw.url, created.id, 30_000);
  expect(done.status).toBe('failed');
  expect(JSON.stringify(done)).not.toContain(UPSTREAM_KEY);
});
