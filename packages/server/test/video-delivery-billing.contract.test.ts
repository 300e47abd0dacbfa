/**
 * Billing on what was delivered, through a started gateway with its worker, over the fake Ark and Sora upstreams: a
 * task that comes back shorter than asked is settled on the delivered seconds (the difference given back), an answer
 * that states no shape (no `seconds` and `size` from Sora) is measured from the stored file instead of being billed as
 * requested, and the usage API shows requested against delivered.
 */
import { eventually } from '@gateway/testkit';
import { startFakeArk, type FakeArk } from '@gateway/provider-ark/testing';
import { startFakeSora, type FakeSora } from '@gateway/provider-openai/testing';
import request from 'supertest';
import type { GatewayConfigFile } from '../src/config';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';
import { settle } from './support/upstream-video-gateways';

const ADMIN = 'sk-admin-delivery-0001';
/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, pollMinMs: 60, pollMaxMs: 200 };
const PRICES = { '480p': 1, '720p': 2, '1080p': 3, '4k': 4 };

let ark: FakeArk;
let sora: FakeSora;
let gw: TestGateway;

beforeAll(async () => {
  // `[short]`: the upstream renders 4 s whatever was asked; `[unstated]`: its answer states no shape at all
  ark = await startFakeArk({
    queuedMs: 30,
    runningMs: 60,
    script: (prompt) => ({ deliveredSeconds: prompt.includes('[short]') ? 4 : undefined, unstatedShape: prompt.includes('[unstated]') }),
  });
  // prompt markers read by the fake Sora: `[delivered:N]` answers `seconds: "N"`, `[unstated]` leaves out seconds and size
  sora = await startFakeSora({ queuedMs: 30, runningMs: 60 });
  const video = { kind: 'video', family: '2.0', tier: 'standard', pricing: { perVideoSecond: PRICES } } as const;
  const config: GatewayConfigFile = {
    providers: [
      { id: 'ark', type: 'ark', baseUrl: ark.url, apiKey: ark.apiKey },
      { id: 'sora', type: 'openai', baseUrl: sora.url, apiKey: sora.apiKey },
    ],
    models: [
      { id: 'ark-video', provider: 'ark', upstreamModel: 'seedance', ...video },
      { id: 'sora-video', provider: 'sora', upstreamModel: 'sora-2', ...video },
    ],
    groups: [{ name: 'default', models: ['*'] }],
    keys: [{ key: ALPHA_KEY, account: 'alpha', group: 'default' }],
  };
  gw = await startTestGateway({ config, env: { adminKey: ADMIN, videoWorker: WORKER } });
  await gw.startBackground();
});
afterAll(async () => {
  await gw?.stop();
  await ark?.close();
  await sora?.close();
});

const user = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ALPHA_KEY}`);
const admin = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ADMIN}`);
const used = async () => (await admin('/admin/accounts/alpha/quota')).body.credits_used as number;

async function createTask(prompt: string, duration: number, resolution = '720p'): Promise<string> {
  const res = await request(gw.app)
    .post('/v1/contents/generations/tasks')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'ark-video', content: [{ type: 'text', text: prompt }], duration, resolution, ratio: '16:9' });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function createVideo(prompt: string, seconds: string): Promise<string> {
  const res = await request(gw.app)
    .post('/v1/videos')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'sora-video', prompt, seconds, size: '1280x720' });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

type Row = { status: string; credits: number; request_id: string; video: unknown };
/** The task's usage rows, oldest first, once its settlement row is there. */
async function settledRows(taskId: string): Promise<Row[]> {
  let rows: Row[] = [];
  await eventually(async () => {
    rows = (await user(`/v1/usage?task_id=${taskId}`)).body.data.reverse();
    if (!rows.some((r) => r.status === 'succeeded')) throw new Error('not settled yet');
  });
  return rows;
}

describe('billing on what was delivered', () => {
  it('a video delivered shorter than asked: charged for the delivered seconds, the rest given back, both shown in /v1/usage', async () => {
    const before = await used();
    const id = await createTask('a fox [short]', 10);
    expect(await used()).toBe(before + 20); // 10 s × 2 reserved at admission
    expect((await settle(gw.url, id, 15_000, ALPHA_KEY)).status).toBe('succeeded');
    const rows = await settledRows(id);
    expect(rows.map((r) => ({ status: r.status, credits: r.credits, video: r.video }))).toEqual([
      { status: 'queued', credits: 20, video: { requested: { seconds: 10, resolution: '720p' }, delivered: null } },
      {
        status: 'succeeded',
        credits: -12,
        video: { requested: { seconds: 10, resolution: '720p' }, delivered: { seconds: 4, resolution: '720p' } },
      },
    ]);
    expect(rows[1]!.request_id).toBe(`settle_${id}`);
    expect(await used()).toBe(before + 8);
    // the task itself reports the delivered length
    const task = (await user(`/v1/contents/generations/tasks/${id}`)).body;
    expect(task).toMatchObject({ status: 'succeeded', duration: 4 });
  });

  it('delivered as asked: no refund, the settlement row still shows both', async () => {
    const before = await used();
    const id = await createTask('a heron', 5);
    await settle(gw.url, id, 15_000, ALPHA_KEY);
    const rows = await settledRows(id);
    expect(rows[1]).toMatchObject({ credits: 0, video: { delivered: { seconds: 5, resolution: '720p' } } });
    expect(await used()).toBe(before + 10);
  });

  it('an answer that states no shape: the stored file is measured (the fake clip: 1 s, below 480p)', async () => {
    const before = await used();
    const id = await createTask('an owl [unstated]', 6, '1080p');
    await settle(gw.url, id, 15_000, ALPHA_KEY);
    const rows = await settledRows(id);
    // reserved 6 s × 3 = 18; delivered 1 s at 480p = 1
    expect(rows[1]).toMatchObject({
      credits: -17,
      video: { requested: { seconds: 6, resolution: '1080p' }, delivered: { seconds: 1, resolution: '480p' } },
    });
    expect(await used()).toBe(before + 1);
  });

  it('GET /admin/usage sums requested and delivered seconds and the refunds, in JSON and CSV', async () => {
    const json = (await admin('/admin/usage?group_by=model')).body.data as Array<Record<string, number | string>>;
    const g = json.find((x) => x.group === 'ark-video')!;
    expect(g).toMatchObject({
      video_seconds_requested: 10 + 5 + 6,
      video_seconds_delivered: 4 + 5 + 1,
      refunds: 12 + 17,
      credits: 20 + 10 + 18,
    });
    const csv = (await admin('/admin/usage?group_by=model&format=csv')).text.trim().split('\r\n');
    expect(csv[0]).toBe('model,requests,input_tokens,output_tokens,credits,refunds,video_seconds_requested,video_seconds_delivered');
    // three tasks are three requests: their settlement rows are bookkeeping, not requests of their own
    expect(g.requests).toBe(3);
    expect(csv.find((l) => l.startsWith('ark-video,'))).toBe('ark-video,3,0,0,48,29,21,10');
  });
});

describe('billing on what Sora delivered', () => {
  it('a video object reporting 4 of the 8 seconds asked: charged for 4, the other 4 given back', async () => {
    const before = await used();
    const id = await createVideo('a lighthouse [delivered:4]', '8');
    expect(await used()).toBe(before + 16); // 8 s × 2 reserved at admission
    expect((await settle(gw.url, id, 15_000, ALPHA_KEY)).status).toBe('succeeded');
    const rows = await settledRows(id);
    expect(rows.map((r) => ({ status: r.status, credits: r.credits, video: r.video }))).toEqual([
      { status: 'queued', credits: 16, video: { requested: { seconds: 8, resolution: '720p' }, delivered: null } },
      {
        status: 'succeeded',
        credits: -8,
        video: { requested: { seconds: 8, resolution: '720p' }, delivered: { seconds: 4, resolution: '720p' } },
      },
    ]);
    expect(await used()).toBe(before + 8);
    // the video object the caller reads reports the delivered length too
    expect((await user(`/v1/videos/${id}`)).body).toMatchObject({ status: 'completed', seconds: '4' });
  });

  it('a video object without seconds and size: the stored file is measured (the fake clip: 1 s, below 480p)', async () => {
    const before = await used();
    const id = await createVideo('a harbour [unstated]', '8');
    await settle(gw.url, id, 15_000, ALPHA_KEY);
    const rows = await settledRows(id);
    // reserved 8 s × 2 = 16; delivered 1 s at 480p = 1
    expect(rows[1]).toMatchObject({
      credits: -15,
      video: { requested: { seconds: 8, resolution: '720p' }, delivered: { seconds: 1, resolution: '480p' } },
    });
    expect(await used()).toBe(before + 1);
  });
});
