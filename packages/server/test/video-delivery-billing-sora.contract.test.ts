/**
 * Billing on what was delivered over a non-Ark upstream: the fake Sora answers a video object whose `seconds` is
 * shorter than asked, and the gateway settles on those seconds, giving the difference back; a video object without
 * `seconds` and `size` is measured from the stored file instead of being billed as requested.
 */
import { eventually } from '@gateway/testkit';
import { startFakeSora, type FakeSora } from '@gateway/provider-openai/testing';
import request from 'supertest';
import type { GatewayConfigFile } from '../src/config';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';
import { settle } from './support/upstream-video-gateways';

const ADMIN = 'sk-admin-delivery-sora-0001';
/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, pollMinMs: 60, pollMaxMs: 200 };
const PRICES = { '480p': 1, '720p': 2, '1080p': 3, '4k': 4 };

let sora: FakeSora;
let gw: TestGateway;

beforeAll(async () => {
  // prompt markers read by the fake: `[delivered:N]` answers `seconds: "N"`, `[unstated]` leaves out seconds and size
  sora = await startFakeSora({ queuedMs: 30, runningMs: 60 });
  const config: GatewayConfigFile = {
    providers: [{ id: 'sora', type: 'openai', baseUrl: sora.url, apiKey: sora.apiKey }],
    models: [
      {
        id: 'sora-video',
        kind: 'video',
        family: '2.0',
        tier: 'standard',
        provider: 'sora',
        upstreamModel: 'sora-2',
        pricing: { perVideoSecond: PRICES },
      },
    ],
    groups: [{ name: 'default', models: ['*'] }],
    keys: [{ key: ALPHA_KEY, account: 'alpha', group: 'default' }],
  };
  gw = await startTestGateway({ config, env: { adminKey: ADMIN, videoWorker: WORKER } });
  await gw.startBackground();
});
afterAll(async () => {
  await gw?.stop();
  await sora?.close();
});

const user = (path: string) => request(gw.app).get(path).set('Authorization', `Bearer ${ALPHA_KEY}`);
const used = async () =>
  (await request(gw.app).get('/admin/accounts/alpha/quota').set('Authorization', `Bearer ${ADMIN}`)).body.credits_used as number;

async function createVideo(prompt: string, seconds: string): Promise<string> {
  const res = await request(gw.app)
    .post('/v1/videos')
    .set('Authorization', `Bearer ${ALPHA_KEY}`)
    .send({ model: 'sora-video', prompt, seconds, size: '1280x720' });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

type Row = { status: string; credits: number; video: unknown };
/** The task's usage rows, oldest first, once its settlement row is there. */
async function settledRows(taskId: string): Promise<Row[]> {
  let rows: Row[] = [];
  await eventually(async () => {
    rows = (await user(`/v1/usage?task_id=${taskId}`)).body.data.reverse();
    if (!rows.some((r) => r.status === 'succeeded')) throw new Error('not settled yet');
  });
  return rows;
}

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
