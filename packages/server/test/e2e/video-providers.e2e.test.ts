/**
 * The three inbound video formats × the three real upstream adapters (Veo, Sora, Ark) over their fakes,
 * through a started gateway with its worker running: every terminal state, byte-for-byte content,
 * capability refusals before anything is sent, 429 handling, expiring result URLs, no key leaks.
 */
import { eventually, fakeMp4, type FakeTaskBook } from '@gateway/testkit';
import { startFakeArk, type FakeArk } from '@gateway/provider-ark/testing';
import { startFakeVeo, type FakeVeo } from '@gateway/provider-google/testing';
import { startFakeSora, type FakeSora } from '@gateway/provider-openai/testing';
import { startTestGateway, type TestGateway } from '../support/test-gateway';
import {
  INBOUND_FORMATS,
  inbound,
  settle,
  UPSTREAM_MODELS,
  upstreamVideoConfig,
  type UpstreamName,
} from '../support/upstream-video-gateways';

/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, concurrency: 32, pollMinMs: 80, pollMaxMs: 250 };

let veo: FakeVeo;
let sora: FakeSora;
let ark: FakeArk;
/** result URLs that expire 1.2 s after the render finished */
let arkShort: FakeArk;
let gw: TestGateway;
const books = () => ({ veo: veo.book, sora: sora.book, ark: ark.book }) as Record<UpstreamName, FakeTaskBook>;
const UPSTREAMS: UpstreamName[] = ['veo', 'sora', 'ark'];

beforeAll(async () => {
  [veo, sora, ark] = await Promise.all([
    startFakeVeo({ queuedMs: 80, runningMs: 150, redirectDownloads: true }),
    startFakeSora({ queuedMs: 80, runningMs: 150 }),
    startFakeArk({ queuedMs: 80, runningMs: 150 }),
  ]);
  arkShort = await startFakeArk({ queuedMs: 0, runningMs: 100, urlTtlMs: 1200 });
  const config = upstreamVideoConfig({ veo, sora, ark });
  config.providers.push({ id: 'ark-short', type: 'ark', baseUrl: arkShort.url, apiKey: arkShort.apiKey });
  config.models.push({
    id: 'ark-short-video',
    kind: 'video',
    family: '2.0',
    tier: 'standard',
    provider: 'ark-short',
    upstreamModel: 'seedance',
  });
  gw = await startTestGateway({ config, env: { videoWorker: WORKER } });
  await gw.startBackground();
});
afterAll(async () => {
  await gw.stop();
  await Promise.all([veo.close(), sora.close(), ark.close(), arkShort.close()]);
});

describe('3 inbound formats × 3 upstreams', () => {
  it('every pair creates a task that succeeds, with the content byte-for-byte what the upstream served', async () => {
    const cases = INBOUND_FORMATS.flatMap((format) => UPSTREAMS.map((up) => ({ format, up, prompt: `matrix ${format} via ${up}` })));
    await Promise.all(
      cases.map(async ({ format, up, prompt }) => {
        const client = inbound(format, gw.url);
        const created = await client.create(UPSTREAM_MODELS[up], prompt);
        expect({ format, up, status: created.status }).toEqual({ format, up, status: 200 });
        const done = await settle(gw.url, created.id);
        expect({ format, up, ...done }).toMatchObject({ format, up, status: 'succeeded' });
        expect(await client.read(created.id)).toMatchObject({ status: format === 'openai' ? 'completed' : 'succeeded' });
        const submitted = books()[up].submissions.filter((t) => t.prompt === prompt);
        expect(submitted).toHaveLength(1);
        const content = await client.content(created.id);
        expect(content.status).toBe(200);
        expect(content.bytes.equals(fakeMp4(submitted[0]!.id))).toBe(true);
      }),
    );
    // Veo's download went through the storage host without the key.
    expect(veo.storage.requests.length).toBeGreaterThanOrEqual(3);
    expect(veo.keysSeenByStorage()).toBe(0);
  });

  it('upstream failures reach every format with the upstream code kept', async () => {
    const expected: Record<UpstreamName, Record<string, string>> = {
      veo: { '[fail]': 'INVALID_ARGUMENT', '[filtered]': 'content_filtered', '[expire]': 'DEADLINE_EXCEEDED' },
      sora: { '[fail]': 'video_generation_failed', '[filtered]': 'moderation_blocked', '[expire]': 'video_generation_timeout' },
      ark: { '[fail]': 'InternalServiceError', '[filtered]': 'OutputVideoSensitiveContentDetected', '[expire]': 'expired' },
    };
    await Promise.all(
      UPSTREAMS.flatMap((up) =>
        Object.entries(expected[up]).map(async ([marker, code], i) => {
          const format = INBOUND_FORMATS[i];
          const client = inbound(format!, gw.url);
          const { id } = await client.create(UPSTREAM_MODELS[up], `failing ${up} ${marker}`);
          expect(await settle(gw.url, id)).toMatchObject({ status: 'failed', error: { code } });
          // a Gemini operation's error is a google.rpc.Status: the stable code travels in its ErrorInfo detail
          const shown = format === 'gemini' ? { code: expect.any(Number), details: [expect.objectContaining({ reason: code })] } : { code };
          expect((await client.read(id)).error).toMatchObject({ ...shown, message: expect.any(String) });
          expect((await client.content(id)).status).toBe(409);
        }),
      ),
    );
  });

  it('a task still queued upstream is cancelled by the client and upstream (Sora deletes, Ark cancels)', async () => {
    for (const up of ['sora', 'ark'] as const) {
      const client = inbound('tasks', gw.url);
      const { id } = await client.create(UPSTREAM_MODELS[up], `hold ${up} [hold]`);
      const task = await waitForUpstream(books()[up], `hold ${up} [hold]`);
      // once the gateway has read the upstream again (the event, not a guessed delay): still queued there, so here
      const api = { sora: sora.api, ark: ark.api }[up];
      const reads = () => api.counts.poll + api.counts.list;
      const readsBefore = reads();
      await eventually(() => reads() > readsBefore, 10_000);
      expect((await client.read(id)).status).toBe('queued');
      expect((await client.cancel(id)).status).toBe(200);
      expect(await settle(gw.url, id)).toMatchObject({ status: 'cancelled' });
      await eventually(() => task.cancelledAt !== undefined);
    }
    // Veo reports no queue: a pending operation is running, and a running task cannot be cancelled.
    const client = inbound('openai', gw.url);
    const { id } = await client.create(UPSTREAM_MODELS.veo, 'veo hold [hold]');
    await eventually(async () => (await client.read(id)).status === 'in_progress');
    expect((await client.cancel(id)).status).toBe(409);
  });

  it("a task past the gateway's execution_expires_after expires, running upstream or not", async () => {
    const client = inbound('tasks', gw.url);
    const ids = await Promise.all(
      UPSTREAMS.map(async (up) => (await client.create(UPSTREAM_MODELS[up], `slow ${up} [slow]`, { execution_expires_after: 3600 })).id),
    );
    for (const up of UPSTREAMS) await waitForUpstream(books()[up], `slow ${up} [slow]`);
    // An hour is long for a test: the tasks are made an hour older instead.
    await gw.db
      .knex('video_tasks')
      .whereIn('id', ids)
      .update({ created_at: gw.db.knex.raw("created_at - interval '3601 seconds'") });
    for (const id of ids) expect(await settle(gw.url, id)).toMatchObject({ status: 'expired', error: { code: 'expired' } });
  });

  it('what an upstream cannot do is a 400 at creation, before anything is sent upstream', async () => {
    const before = { veo: veo.book.submissions.length, sora: sora.book.submissions.length, ark: ark.book.submissions.length };
    const tasks = inbound('tasks', gw.url);
    const img = `data:image/png;base64,${pngBase64()}`;
    const refs = await tasks.create(UPSTREAM_MODELS.sora, '', {
      content: [
        { type: 'text', text: 'x' },
        { type: 'image_url', image_url: { url: img }, role: 'reference_image' },
      ],
    });
    expect(refs).toMatchObject({ status: 400, body: { code: 'reference_images_not_supported' } });
    expect(await tasks.create(UPSTREAM_MODELS.ark, 'x', { resolution: '4k' })).toMatchObject({
      status: 400,
      body: { code: 'resolution_not_supported' },
    });
    expect(await inbound('gemini', gw.url).create(UPSTREAM_MODELS.veo, 'x', { resolution: '480p' })).toMatchObject({ status: 400 });
    expect(await inbound('openai', gw.url).create(UPSTREAM_MODELS.sora, 'x', { seconds: '5' })).toMatchObject({
      status: 400,
      body: { error: { code: 'duration_not_supported' } },
    });
    expect({ veo: veo.book.submissions.length, sora: sora.book.submissions.length, ark: ark.book.submissions.length }).toEqual(before);
  });

  it('a 429 on create or poll is waited out: the task still succeeds, submitted once', async () => {
    sora.api.failNext('create', 1, { status: 429, retryAfterSeconds: 1 });
    ark.api.failNext('list', 2, { status: 429, retryAfterSeconds: 1 });
    const [a, b] = await Promise.all([
      inbound('openai', gw.url).create(UPSTREAM_MODELS.sora, 'limited sora'),
      inbound('gemini', gw.url).create(UPSTREAM_MODELS.ark, 'limited ark'),
    ]);
    expect(await settle(gw.url, a.id)).toMatchObject({ status: 'succeeded' });
    expect(await settle(gw.url, b.id)).toMatchObject({ status: 'succeeded' });
    expect(sora.book.count('limited sora')).toBe(1);
    expect(ark.book.count('limited ark')).toBe(1);
  });

  it("Ark's result URL expires, the gateway's copy does not; a URL that expired before the copy fails the task", async () => {
    const client = inbound('tasks', gw.url);
    const { id } = await client.create('ark-short-video', 'short-lived url');
    expect(await settle(gw.url, id)).toMatchObject({ status: 'succeeded' });
    const upstream = arkShort.book.submissions.find((t) => t.prompt === 'short-lived url')!;
    await eventually(
      async () => (await fetch(`${arkShort.storage.origin}/ark/${upstream.id}.mp4?X-Expires=${upstream.createdAt + 1300}`)).status === 403,
    );
    const content = await client.content(id);
    expect(content.status).toBe(200);
    expect(content.bytes.equals(fakeMp4(upstream.id))).toBe(true);

    // Polls refused (429, Retry-After 2 s) until the result URL has expired: the copy cannot succeed, so the task fails.
    arkShort.api.failNext('list', 1, { status: 429, retryAfterSeconds: 2 });
    const late = await client.create('ark-short-video', 'copied too late');
    expect(await settle(gw.url, late.id)).toMatchObject({ status: 'failed', error: { code: 'upstream_result_gone' } });
  });
});

async function waitForUpstream(book: FakeTaskBook, prompt: string) {
  let t;
  await eventually(() => Boolean((t = book.submissions.find((x) => x.prompt === prompt))));
  return t!;
}

/** A 2x2 PNG (the tasks format decodes image data URLs). */
function pngBase64(): string {
  return 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
}
