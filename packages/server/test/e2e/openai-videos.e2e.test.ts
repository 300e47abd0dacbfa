import OpenAI, { NotFoundError, toFile } from 'openai';
import { eventually } from '@gateway/testkit';
import { BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';
import { isMp4, mp4DurationSeconds, pngImage } from '../support/video-fixtures';

let gw: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  gw = await startTestGateway();
  await gw.startBackground();
  client = new OpenAI({ apiKey: BETA_KEY, baseURL: `${gw.url}/v1` });
});
afterAll(async () => {
  await gw.stop();
});

async function untilCompleted(id: string) {
  let v!: Awaited<ReturnType<typeof client.videos.retrieve>>;
  await eventually(
    async () => {
      v = await client.videos.retrieve(id);
      if (v.status !== 'completed' && v.status !== 'failed') throw new Error(`video ${id} still ${v.status}`);
    },
    25_000,
    200,
  );
  return v;
}

describe('openai SDK videos against the gateway', () => {
  const made: string[] = [];

  it('create (text only) → retrieve until completed → downloadContent', async () => {
    const created = await client.videos.create({ model: 'sim-video-2.0', prompt: 'a lighthouse at dusk', seconds: '4', size: '1280x720' });
    expect(created).toMatchObject({ object: 'video', status: 'queued', progress: 0, seconds: '4', size: '1280x720' });
    made.push(created.id);
    const done = await untilCompleted(created.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null, completed_at: expect.any(Number) });
    const res = await client.videos.downloadContent(created.id);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(isMp4(bytes)).toBe(true);
    expect(mp4DurationSeconds(bytes)).toBeCloseTo(4, 0);
  });

  it('remix a completed video → retrieve until completed → a different MP4 of the same length', async () => {
    const source = await client.videos.create({ model: 'sim-video-2.0', prompt: 'a harbor at noon', seconds: '4', size: '720x1280' });
    made.push(source.id);
    await untilCompleted(source.id);
    const remixed = await client.videos.remix(source.id, { prompt: 'the harbor at midnight' });
    expect(remixed).toMatchObject({
      object: 'video',
      status: 'queued',
      remixed_from_video_id: source.id,
      seconds: '4',
      size: '720x1280',
      prompt: 'the harbor at midnight',
    });
    made.push(remixed.id);
    expect(await untilCompleted(remixed.id)).toMatchObject({ status: 'completed', remixed_from_video_id: source.id });
    const [a, b] = await Promise.all(
      [source.id, remixed.id].map(async (id) => Buffer.from(await (await client.videos.downloadContent(id)).arrayBuffer())),
    );
    expect(isMp4(b!)).toBe(true);
    expect(mp4DurationSeconds(b!)).toBeCloseTo(4, 0);
    expect(b!.equals(a!)).toBe(false);
  });

  it('create with input_reference (a 1280x720 PNG file) → completed', async () => {
    const frame = await toFile(pngImage(1280, 720), 'frame.png', { type: 'image/png' });
    const created = await client.videos.create({
      model: 'sim-video-2.5',
      prompt: 'waves',
      seconds: '4',
      size: '1280x720',
      input_reference: frame,
    });
    made.push(created.id);
    const done = await untilCompleted(created.id);
    expect(done.status).toBe('completed');
    expect(done.size).toBe('1280x720');
  });

  it('list shows the videos; delete removes a finished one', async () => {
    const page = await client.videos.list({ limit: 10 });
    const ids = page.data.map((v) => v.id);
    for (const id of made) expect(ids).toContain(id);
    const deleted = await client.videos.delete(made[0]!);
    expect(deleted).toEqual({ id: made[0], object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(made[0]!)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a refused request is an APIError with the OpenAI error body', async () => {
    const err = await client.videos.create({ model: 'sim-video-2.0', prompt: 'p', size: '1792x1024' }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toMatchObject({ code: 'invalid_size', param: 'size', type: 'invalid_request_error' });
  });
});
