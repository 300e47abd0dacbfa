import { eventually } from '@gateway/testkit';
import { randomBytes } from 'node:crypto';
import { ALPHA_KEY, BETA_KEY, testConfigFile, startTestGateway, type TestGateway } from '../support/test-gateway';
import { recordFigure } from './support/figures';

/**
 * One account's tasks, video content, stored responses, image URLs and usage rows are invisible to every other
 * account, through every route of every format, and indistinguishable from missing: the same status and the same
 * body, apart from the id, as for an id that never existed. Writes through another account change nothing.
 */
jest.setTimeout(60_000);

const GAMMA_KEY = 'sk-gamma-test-key-0003'; // same group as alpha: only the account differs
let gw: TestGateway;
const owned = { tasks: [] as string[], response: '', image: '', requestIds: [] as string[] };
let probes = 0;

interface Answer {
  status: number;
  body: string;
  type: string;
}

async function call(key: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(gw.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...extra },
    body: body ? JSON.stringify(body) : undefined,
  });
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, body: buf.toString('latin1'), type: res.headers.get('content-type') ?? '' };
}

/** An id of the same shape that never existed: the last characters replaced from the same alphabet. */
function missingLike(id: string): string {
  const tail = [...randomBytes(8)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
  return id.slice(0, id.length - 8) + tail;
}

/**
 * What the intruder sees for the real id must be what anyone sees for a missing one, once the ids are masked: a
 * refusal for reads and writes, the same (empty) page for list filters and cursors.
 */
async function expectLikeMissing(
  key: string,
  method: string,
  path: (id: string) => string,
  id: string,
  body?: (id: string) => unknown,
  refused = true,
) {
  const ghost = missingLike(id);
  const real = await call(key, method, path(id), body?.(id));
  const missing = await call(key, method, path(ghost), body?.(ghost));
  probes++;
  const mask = (a: Answer, x: string) => ({
    status: a.status,
    type: a.type,
    body: a.body
      .split(x)
      .join('<id>')
      .replace(/req_[a-z0-9]+/g, '<req>'),
  });
  expect(mask(real, id)).toEqual(mask(missing, ghost));
  if (refused) expect(real.status).toBeGreaterThanOrEqual(400);
}

beforeAll(async () => {
  const base = testConfigFile();
  gw = await startTestGateway({ config: { ...base, keys: [...base.keys!, { key: GAMMA_KEY, account: 'gamma', group: 'default' }] } });
  await gw.startBackground();
  const alpha = (method: string, path: string, body?: unknown, extra?: Record<string, string>) =>
    call(ALPHA_KEY, method, path, body, extra);

  const created = [
    await alpha('POST', '/v1beta/models/sim-video-2.0:predictLongRunning', {
      instances: [{ prompt: 'alpha one' }],
      parameters: { durationSeconds: 4, resolution: '480p' },
    }),
    await alpha('POST', '/v1/videos', { model: 'sim-video-2.0', prompt: 'alpha two', seconds: '4', size: '1280x720' }),
    await alpha('POST', '/v1/contents/generations/tasks', {
      model: 'sim-video-2.0',
      content: [{ type: 'text', text: 'alpha three' }],
      duration: 4,
      resolution: '480p',
    }),
  ];
  for (const c of created) {
    expect(c.status).toBe(200);
    const b = JSON.parse(c.body);
    owned.tasks.push(b.id ?? String(b.name).split('/').at(-1));
  }
  const response = await alpha('POST', '/v1/responses', { model: 'sim-chat', input: 'alpha remembers this' });
  owned.response = JSON.parse(response.body).id;
  const image = await alpha('POST', '/v1/images/generations', {
    model: 'sim-image',
    prompt: 'alpha square',
    size: '256x256',
    response_format: 'url',
  });
  owned.image = new URL(JSON.parse(image.body).data[0].url).pathname;
  // Let the videos finish, so there is content to protect too.
  const done = await eventually(
    async () => {
      const states = await Promise.all(
        owned.tasks.map(async (id) => JSON.parse((await alpha('GET', `/v1/contents/generations/tasks/${id}`)).body).status),
      );
      return states.every((s) => s === 'succeeded');
    },
    30_000,
    200,
  );
  expect(done).toBe(true);
  await gw.usage.flush();
  const usage = JSON.parse((await alpha('GET', '/v1/usage?limit=1000')).body);
  owned.requestIds = usage.data.map((r: { request_id: string }) => r.request_id);
  expect(owned.requestIds.length).toBeGreaterThanOrEqual(5);
});
afterAll(async () => {
  recordFigure('isolation probes', probes);
  await gw.stop();
});

const INTRUDERS = [
  { name: 'another account in the same group', key: GAMMA_KEY },
  { name: 'another account in another group', key: BETA_KEY },
];

describe.each(INTRUDERS)('$name', ({ key }) => {
  it('cannot read, download, cancel or delete a video task, in any format', async () => {
    for (const id of owned.tasks) {
      await expectLikeMissing(key, 'GET', (x) => `/v1/contents/generations/tasks/${x}`, id);
      await expectLikeMissing(key, 'GET', (x) => `/v1/videos/${x}`, id);
      await expectLikeMissing(key, 'GET', (x) => `/v1/videos/${x}/content`, id);
      await expectLikeMissing(key, 'GET', (x) => `/v1/videos/${x}/content?variant=thumbnail`, id);
      await expectLikeMissing(key, 'GET', (x) => `/v1beta/models/sim-video-2.0/operations/${x}`, id);
      await expectLikeMissing(key, 'GET', (x) => `/v1beta/files/${x}:download?alt=media`, id);
      await expectLikeMissing(key, 'DELETE', (x) => `/v1/videos/${x}`, id);
      await expectLikeMissing(key, 'DELETE', (x) => `/v1/contents/generations/tasks/${x}`, id);
      await expectLikeMissing(
        key,
        'POST',
        (x) => `/v1/videos/${x}/remix`,
        id,
        () => ({ prompt: 'mine now' }),
      );
      // ...and the owner still has it, content and all
      expect((await call(ALPHA_KEY, 'GET', `/v1/videos/${id}/content`)).status).toBe(200);
    }
  });

  it('does not see the tasks in lists, filters or cursors', async () => {
    const lists = [
      await call(key, 'GET', '/v1/videos?limit=100'),
      await call(key, 'GET', '/v1/contents/generations/tasks?page_size=100'),
      await call(key, 'GET', `/v1/contents/generations/tasks?${owned.tasks.map((t) => `filter.task_ids=${t}`).join('&')}`),
    ];
    for (const l of lists) {
      expect(l.status).toBe(200);
      for (const id of owned.tasks) expect(l.body).not.toContain(id);
    }
    for (const id of owned.tasks) {
      await expectLikeMissing(key, 'GET', (x) => `/v1/videos?after=${x}`, id, undefined, false);
      await expectLikeMissing(key, 'GET', (x) => `/v1/contents/generations/tasks?filter.task_ids=${x}`, id, undefined, false);
      await expectLikeMissing(key, 'GET', (x) => `/v1/usage?task_id=${x}`, id, undefined, false);
    }
  });

  it('cannot read, delete, continue or compact a stored response', async () => {
    const id = owned.response;
    await expectLikeMissing(key, 'GET', (x) => `/v1/responses/${x}`, id);
    await expectLikeMissing(key, 'DELETE', (x) => `/v1/responses/${x}`, id);
    const model = 'sim-chat';
    await expectLikeMissing(
      key,
      'POST',
      () => '/v1/responses',
      id,
      (x) => ({ model, input: 'what did they say?', previous_response_id: x }),
    );
    await expectLikeMissing(
      key,
      'POST',
      () => '/v1/responses/compact',
      id,
      (x) => ({ model, previous_response_id: x }),
    );
    expect((await call(ALPHA_KEY, 'GET', `/v1/responses/${id}`)).status).toBe(200);
  });

  it('does not see the usage rows, by any filter', async () => {
    const mine = JSON.parse((await call(key, 'GET', '/v1/usage?limit=1000')).body);
    const theirs = new Set(owned.requestIds);
    expect(mine.data.filter((r: { request_id: string }) => theirs.has(r.request_id))).toEqual([]);
    for (const rid of owned.requestIds.slice(0, 5))
      await expectLikeMissing(key, 'GET', (x) => `/v1/usage?request_id=${x}`, rid, undefined, false);
  });
});

describe('image URLs', () => {
  it('are unguessable (≥128 random bits), cannot be listed, and a near miss is a plain 404', async () => {
    const name = owned.image.split('/').at(-1)!;
    const random = /^img([a-z0-9]+)\./.exec(name)![1];
    expect(random!.length * Math.log2(36)).toBeGreaterThanOrEqual(128);
    // The URL is the credential (no key needed, as with the providers' signed URLs); there is nothing to enumerate.
    for (const key of [GAMMA_KEY, BETA_KEY]) {
      for (const path of ['/v1/images/files', '/v1/images/files/', '/v1/images', '/v1/images/generations']) {
        const list = await call(key, 'GET', path);
        expect(list.status).toBe(404);
        expect(list.body).not.toContain(random);
      }
    }
    const near = await call(GAMMA_KEY, 'GET', `/v1/images/files/${missingLike(name.replace(/\.png$/, ''))}.png`);
    const far = await call(
      GAMMA_KEY,
      'GET',
      `/v1/images/files/img${missingLike(random!).slice(0, 16)}${missingLike(random!).slice(16)}.png`,
    );
    expect({ status: near.status, body: near.body }).toEqual({ status: 404, body: far.body });
  });
});
