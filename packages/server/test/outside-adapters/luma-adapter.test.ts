import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdapterCommand } from '@gateway/cli';
import { eventually } from '@gateway/testkit';
import { startFakeProcess, type FakeProcess } from '@gateway/provider-kit/testing';
import { INBOUND_FORMATS, inbound, settle, type InboundFormat } from '../support/upstream-video-gateways';
import { startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Issue 27's video proof by hand: an adapter for a vendor none of the built-ins speaks (Luma's Dream Machine API,
 * ./luma/adapter.mjs, from its public reference, against the contract only), copied to a temporary directory
 * outside packages/, passes the kit against its fake and serves the three video formats, loaded by config, with
 * exactly one upstream generation per task.
 */
const KEY = 'luma-upstream-key-0123456789abcdef';
/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, pollMinMs: 50, pollMaxMs: 150 };
// Luma renders 5 s or 9 s: each format's own duration field
const FIVE_SECONDS: Record<InboundFormat, Record<string, unknown>> = {
  gemini: { durationSeconds: 5 },
  openai: { seconds: '5' },
  tasks: { duration: 5 },
};

interface FakeLog {
  requests: Array<{ method: string; path: string; body: Record<string, unknown>; authorization: string | null }>;
  jobs: Array<{ id: string; body: { prompt: string } }>;
  cancelled: string[];
  downloads: Array<{ id: string; authorization: string | null }>;
}

let dir: string;
let pkg: string;
let fake: FakeProcess;
let gw: TestGateway;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'outside-luma-'));
  pkg = path.join(dir, 'luma');
  mkdirSync(pkg);
  for (const f of ['adapter.mjs', 'fake-upstream.mjs']) cpSync(path.join(__dirname, 'luma', f), path.join(pkg, f));
  cpSync(path.join(__dirname, 'luma', 'package.template.json'), path.join(pkg, 'package.json'));
  fake = await startFakeProcess(pkg, ['--key', KEY]);
  const base = testConfigFile();
  gw = await startTestGateway({
    env: { videoWorker: WORKER },
    config: {
      ...base,
      providers: [...base.providers, { id: 'luma', module: path.join(pkg, 'adapter.mjs'), apiKey: KEY, options: { baseUrl: fake.url } }],
      models: [
        ...base.models,
        { id: 'luma-ray', kind: 'video', family: '2.0', tier: 'standard', provider: 'luma', upstreamModel: 'ray-2' },
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

it('passes the conformance kit: one line per suite, exit 0', async () => {
  const lines: string[] = [];
  const code = await runAdapterCommand('adapter:test', [pkg], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(lines.filter((l) => l.startsWith('FAIL '))).toEqual([]);
  expect(lines.filter((l) => l.startsWith('PASS '))).toHaveLength(6);
  expect(code).toBe(0);
});

it.each(INBOUND_FORMATS)('%s: one Luma generation per task, its file delivered, the key never sent to the CDN', async (format) => {
  const client = inbound(format, gw.url);
  const prompt = `a paper boat via ${format}`;
  const created = await client.create('luma-ray', prompt, FIVE_SECONDS[format]);
  expect(created.status).toBe(200);
  expect(await settle(gw.url, created.id, 30_000)).toMatchObject({ status: 'succeeded' });
  const content = await client.content(created.id);
  expect(content.status).toBe(200);
  expect(content.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

  const log = (await fake.control('/__fake/log')) as FakeLog;
  const submits = log.requests.filter((r) => r.method === 'POST' && r.body.prompt === prompt);
  expect(submits).toHaveLength(1);
  expect(submits[0]).toMatchObject({
    path: '/dream-machine/v1/generations',
    authorization: `Bearer ${KEY}`,
    body: { model: 'ray-2', duration: '5s', resolution: '720p', aspect_ratio: '16:9' },
  });
  const job = log.jobs.find((j) => j.body.prompt === prompt)!;
  expect(content.bytes.toString('latin1')).toContain(`luma:${job.id}`);
  const downloads = log.downloads.filter((d) => d.id === job.id);
  expect(downloads.length).toBeGreaterThan(0);
  expect(downloads.every((d) => d.authorization === null)).toBe(true);
});

it("a duration Luma does not render is refused with 400 in the caller's format, and nothing reaches Luma", async () => {
  await fake.control('/__fake/reset');
  const r = await inbound('openai', gw.url).create('luma-ray', 'a four second kite', { seconds: '4' });
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ error: { code: 'duration_not_supported', message: expect.stringContaining('allowed: 5, 9 s') } });
  const log = (await fake.control('/__fake/log')) as FakeLog;
  expect(log.requests).toEqual([]);
});

it('a generation Luma fails ends failed for the client, with its reason and without the key', async () => {
  await fake.control('/__fake/next', { fail: true });
  const created = await inbound('tasks', gw.url).create('luma-ray', 'a kite that fails', FIVE_SECONDS.tasks);
  const done = await settle(gw.url, created.id, 30_000);
  // the fake's failure_reason, under the adapter's code
  expect(done).toMatchObject({ status: 'failed', error: { code: 'generation_failed', message: 'Job failed' } });
  expect(JSON.stringify(done)).not.toContain(KEY);
});

it('a generation still queued at Luma is cancelled by the client: the task ends cancelled and Luma deletes it', async () => {
  await fake.control('/__fake/next', { hold: true });
  const client = inbound('tasks', gw.url);
  const prompt = 'a kite held in the queue';
  const { id } = await client.create('luma-ray', prompt, FIVE_SECONDS.tasks);
  const log = async () => (await fake.control('/__fake/log')) as FakeLog;
  // the event, not a guessed delay: the gateway has submitted and then read the generation back (still queued)
  let job!: FakeLog['jobs'][number];
  await eventually(async () => {
    const l = await log();
    job = l.jobs.find((j) => j.body.prompt === prompt)!;
    expect(job).toBeDefined();
    expect(l.requests.filter((r) => r.method === 'GET' && r.path.endsWith(job.id)).length).toBeGreaterThan(0);
  }, 10_000);
  expect((await client.read(id)).status).toBe('queued');
  expect((await client.cancel(id)).status).toBe(200);
  expect(await settle(gw.url, id, 30_000)).toMatchObject({ status: 'cancelled' });
  await eventually(async () => expect((await log()).cancelled).toContain(job.id), 10_000);
  expect((await log()).requests.filter((r) => r.method === 'POST' && r.body.prompt === prompt)).toHaveLength(1);
});
