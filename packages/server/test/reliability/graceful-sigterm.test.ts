import { eventually } from '@gateway/testkit';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ALPHA_KEY } from '../support/test-gateway';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { processSetup, type ProcessSetup } from './support/process-setup';
import { openStream, textCall } from './support/text-clients';
import { readTask } from './support/video-clients';

/**
 * SIGTERM to a gateway process: it stops accepting at once, lets an in-flight stream run until SHUTDOWN_GRACE_MS
 * and then cuts it, aborts the render in flight and hands its task back (no lease left to wait out), and exits 0.
 */
jest.setTimeout(120_000);

let setup: ProcessSetup;
// Every process a test started is gone before the next test: a test that failed half-way must not leave a gateway
// holding the shared DATA_DIR (the next one would stop at its lock).
const started: GatewayProcess[] = [];
const start = async (): Promise<GatewayProcess> => {
  const gw = await startGatewayProcess(setup.env);
  started.push(gw);
  return gw;
};
afterEach(async () => {
  for (const gw of started.splice(0)) await gw.stop('SIGKILL');
});
beforeAll(async () => {
  setup = await processSetup({ postgres: false, workerEnv: { SHUTDOWN_GRACE_MS: '1500', VIDEO_WORKER_LEASE_MS: '30000' } });
});
afterAll(async () => setup.cleanup());

/** A render under way: ffmpeg writes the simulator's output to a `.partial` first. */
const rendering = () => readdirSync(path.join(setup.dir, 'simulator', 'videos')).some((f) => f.endsWith('.partial'));

it('SIGTERM mid-render: the render is aborted and its task handed back at once; the next process finishes it', async () => {
  const gw = await start();
  // 15 s of 720p: a render long enough to be caught
  const created = await fetch(`${gw.url}/v1/contents/generations/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'sim-video-2.0',
      content: [{ type: 'text', text: 'claimed at shutdown' }],
      duration: 15,
      resolution: '720p',
    }),
  });
  const taskId = ((await created.json()) as { id: string }).id;
  expect(await eventually(rendering, 15_000, 10)).toBe(true);
  expect(await gw.stop('SIGTERM')).toBe(0);
  const db = await setup.openStore();
  try {
    const row = await db.knex('video_tasks').where({ id: taskId }).first();
    // handed back: no owner left, though its lease (30 s) had not run out
    expect({ status: row.status, lease_owner: row.lease_owner }).toEqual({ status: 'running', lease_owner: null });
  } finally {
    await db.close();
  }
  const next = await start();
  try {
    // taken up straight away, not after the lease
    expect(await eventually(async () => (await readTask(next.url, ALPHA_KEY, taskId)).status === 'succeeded', 20_000, 100)).toBe(true);
  } finally {
    expect(await next.stop('SIGTERM')).toBe(0);
  }
});

it('SIGTERM mid-stream: stops accepting at once, lets the stream run to the grace deadline, then exits 0', async () => {
  const gw = await start();
  // many slow chunks (the simulator waits 400 ms between them): far longer than the grace period
  const { res } = await openStream(
    gw.url,
    textCall('chat', ALPHA_KEY, 'sim-chat', true, 'a long answer please, with twelve words in it to echo back'),
  );
  let text = '';
  res.on('data', (d) => (text += d));
  const streamEnded = new Promise<number>((r) => res.on('close', () => r(Date.now())));
  await eventually(() => text.includes('"content"'), 5000, 10);
  const signalled = Date.now();
  const exited = gw.stop('SIGTERM');
  // the listener closes on the signal: wait for new connections to be refused (the event), not for a guessed delay
  await eventually(() => expect(fetch(`${gw.url}/healthz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow(), 5000);
  expect(text).not.toContain('[DONE]'); // still streaming after the signal
  expect(await exited).toBe(0);
  // the stream got the grace period (1.5 s), then was cut: no [DONE]
  expect((await streamEnded) - signalled).toBeGreaterThanOrEqual(1000);
  expect(text).not.toContain('[DONE]');
});
