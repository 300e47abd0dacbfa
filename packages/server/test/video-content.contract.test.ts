import request from 'supertest';
import { binaryBody } from './support/binary-body';
import { BETA_KEY, type TestGateway } from './support/test-gateway';
import { startVideoGateway, waitForTask } from './support/video-gateways';
import { isMp4 } from './support/video-fixtures';

// Every format's content link is served by the one download (http-kit/content-download.ts): HEAD, Range, 416.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startVideoGateway({ worker: true });
});
afterAll(async () => {
  await gw.stop();
});

const bearer = { Authorization: `Bearer ${BETA_KEY}` };
const googKey = { 'x-goog-api-key': BETA_KEY };
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

interface Format {
  name: string;
  headers: Record<string, string>;
  /** creates a task in this format, waits for it, and returns the download path this format handed out */
  link: () => Promise<string>;
  /** the 416 body in the format that serves the link */
  refusal: (code: string) => unknown;
}

const openAiShape = (code: string) => ({ error: { message: expect.any(String), type: expect.any(String), param: 'Range', code } });
const FORMATS: Format[] = [
  {
    name: 'video-endpoint /v1/videos/{id}/content',
    headers: bearer,
    link: async () => {
      const { body } = await request(gw.app).post('/v1/videos').set(bearer).send({ model: 'sim-video-2.0', prompt: 'a', seconds: '4' });
      expect(await waitForTask(gw.app, body.id, BETA_KEY)).toBe('succeeded');
      return `/v1/videos/${body.id}/content`;
    },
    refusal: openAiShape,
  },
  {
    name: 'long-running operation files/{id}:download',
    headers: googKey,
    link: async () => {
      const { body } = await request(gw.app)
        .post('/v1beta/models/sim-video-2.0:predictLongRunning')
        .set(googKey)
        .send({ instances: [{ prompt: 'a' }] });
      const id = String(body.name).split('/').pop()!;
      expect(await waitForTask(gw.app, id, BETA_KEY)).toBe('succeeded');
      const op = await request(gw.app).get(`/v1beta/${body.name}`).set(googKey);
      return pathOf(op.body.response.generateVideoResponse.generatedSamples[0].video.uri);
    },
    refusal: (code) => ({ code, message: expect.any(String) }),
  },
  {
    name: 'task-read content.video_url',
    headers: bearer,
    link: async () => {
      const base = '/v1/contents/generations/tasks';
      const { body } = await request(gw.app)
        .post(base)
        .set(bearer)
        .send({ model: 'sim-video-2.0', content: [{ type: 'text', text: 'a' }] });
      expect(await waitForTask(gw.app, body.id, BETA_KEY)).toBe('succeeded');
      const task = await request(gw.app).get(`${base}/${body.id}`).set(bearer);
      return pathOf(task.body.content.video_url);
    },
    refusal: openAiShape,
  },
];

describe.each(FORMATS)('content download: $name', (format) => {
  let link: string;
  let whole: Buffer;
  beforeAll(async () => {
    link = await format.link();
    const res = await binaryBody(request(gw.app).get(link).set(format.headers));
    expect(res.status).toBe(200);
    whole = res.body as Buffer;
  });

  it('GET serves the whole MP4 with its length and Accept-Ranges; HEAD the same headers without a body', async () => {
    expect(isMp4(whole)).toBe(true);
    const head = await request(gw.app).head(link).set(format.headers);
    expect(head.status).toBe(200);
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers['content-type']).toBe('video/mp4');
    expect(Number(head.headers['content-length'])).toBe(whole.length);
    expect(head.text ?? '').toBe('');
  });

  it('Range answers 206 with the asked bytes, HEAD with a suffix range, 416 past the end', async () => {
    const part = await binaryBody(request(gw.app).get(link).set(format.headers).set('Range', 'bytes=4-11'));
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${whole.length}`);
    expect(part.body as Buffer).toEqual(whole.subarray(4, 12));
    const tail = await request(gw.app).head(link).set(format.headers).set('Range', 'bytes=-10');
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`);
    expect(tail.headers['content-length']).toBe('10');
    const past = await request(gw.app).get(link).set(format.headers).set('Range', `bytes=${whole.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${whole.length}`);
    expect(past.body).toEqual(format.refusal('range_not_satisfiable'));
  });

  it('a malformed or multi-range header gets the whole file', async () => {
    const multi = await request(gw.app).head(link).set(format.headers).set('Range', 'bytes=0-1,4-5');
    expect(multi.status).toBe(200);
    expect(Number(multi.headers['content-length'])).toBe(whole.length);
  });
});
