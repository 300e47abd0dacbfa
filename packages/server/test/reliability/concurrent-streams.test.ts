import { googleErrorParts } from '@gateway/wire-gemini-content';
import { eventually, describeWithService, externalServiceUrl } from '@gateway/testkit';
import { randomBytes } from 'node:crypto';
import { ALPHA_KEY, BETA_KEY, type TestGateway } from '../support/test-gateway';
import { startControlledUpstream, type ControlledUpstream } from './support/controlled-upstream';
import { gatewayOver, modelOf } from './support/gateway-over';
import { errorProblem, openStream, send, TEXT_FORMATS, textCall, type TextFormat } from './support/text-clients';

/**
 * limits.concurrentStreamsPerKey: a key's streams beyond the limit are refused with 429 + Retry-After in the
 * caller's format, before the upstream is called; non-streaming calls and other keys go on; a closed stream frees
 * its slot. With TEST_REDIS_URL the limit holds across two instances.
 */
const MODEL = modelOf('held');
const codeOf = (format: TextFormat, body: any) => (format === 'gemini' ? googleErrorParts(body).code : body.error.code);

/** Opens a stream, retrying briefly while it is refused (a freed slot shows once the gateway saw the close). */
async function openWhenAdmitted(url: string, format: TextFormat, key: string) {
  let next = await openStream(url, textCall(format, key, MODEL, true));
  await eventually(async () => {
    if (next.res.statusCode !== 429) return true;
    next.res.resume();
    next = await openStream(url, textCall(format, key, MODEL, true));
    return next.res.statusCode !== 429;
  }, 10_000);
  return next;
}

describe('concurrent streams per key (in memory)', () => {
  let up: ControlledUpstream;
  let gw: TestGateway;
  beforeAll(async () => {
    up = await startControlledUpstream('openai', 'hold');
    gw = await gatewayOver([{ id: 'held', dialect: 'openai', url: up.url, apiKey: up.apiKey }], { limits: { concurrentStreamsPerKey: 2 } });
  });
  afterAll(async () => {
    up.releaseAll();
    await gw.stop();
    await up.close();
  });

  it.each(TEXT_FORMATS)('%s: the third stream is refused; a non-stream, another key and a freed slot go on', async (format) => {
    const open = [
      await openStream(gw.url, textCall(format, BETA_KEY, MODEL, true)),
      await openStream(gw.url, textCall(format, BETA_KEY, MODEL, true)),
    ];
    try {
      expect(open.map((o) => o.res.statusCode)).toEqual([200, 200]);
      const upstreamBefore = up.streams.length;
      const third = await send(gw.url, textCall(format, BETA_KEY, MODEL, true));
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(errorProblem(format, third)).toBeNull();
      expect(codeOf(format, JSON.parse(third.text))).toBe('too_many_concurrent_streams');
      // The limit is checked before the upstream is called: the refused stream never reached it.
      expect(up.streams.length).toBe(upstreamBefore);

      expect((await send(gw.url, textCall(format, BETA_KEY, MODEL, false))).status).toBe(200);
      const other = await send(gw.url, textCall(format, ALPHA_KEY, 'sim-chat', true));
      expect(other.status).toBe(200);

      open.shift()!.req.destroy();
      // The slot is freed when the gateway sees the close; a new stream is admitted then.
      const next = await openWhenAdmitted(gw.url, format, BETA_KEY);
      open.push(next);
      expect(next.res.statusCode).toBe(200);
    } finally {
      for (const o of open) o.req.destroy();
    }
  });

  it('counts streams across formats: two text streams leave no slot for an image stream of the same key', async () => {
    const open = [
      await openStream(gw.url, textCall('chat', BETA_KEY, MODEL, true)),
      await openStream(gw.url, textCall('gemini', BETA_KEY, MODEL, true)),
    ];
    try {
      const call = { path: '/v1/images/generations', headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' } };
      const image = await send(gw.url, {
        ...call,
        body: JSON.stringify({ model: 'sim-image', prompt: 'a red square', size: '256x256', stream: true, partial_images: 1 }),
      });
      expect(image.status).toBe(429);
      expect(JSON.parse(image.text).error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_concurrent_streams' });
      open.shift()!.req.destroy();
      open.shift()!.req.destroy();
      expect(
        await eventually(
          async () =>
            (
              await send(gw.url, {
                ...call,
                body: JSON.stringify({ model: 'sim-image', prompt: 'a red square', size: '256x256', stream: true, partial_images: 1 }),
              })
            ).status === 200,
          3000,
          50,
        ),
      ).toBe(true);
    } finally {
      for (const o of open) o.req.destroy();
    }
  });
});

describeWithService('TEST_REDIS_URL', 'concurrent streams per key across instances (Redis)', (redisUrl) => {
  // Instances of one deployment share a store, hence the key's (random) id that the slots are counted under.
  const databaseUrl = externalServiceUrl('TEST_DATABASE_URL');
  const itShared = databaseUrl ? it : it.skip;
  itShared(
    "two instances share one key's stream slots (skipped without TEST_DATABASE_URL)",
    async () => {
      const up = await startControlledUpstream('openai', 'hold');
      // a fresh key per run, so slots left in Redis by an earlier run do not count
      const key = `sk-cs-${randomBytes(8).toString('hex')}`;
      const shared = { databaseUrl, databaseSchema: `cs_${randomBytes(4).toString('hex')}` };
      const opts = {
        limits: { concurrentStreamsPerKey: 2 },
        env: { redisUrl, ...shared },
        extraKeys: [{ key, account: 'cs', group: 'vip' }],
      };
      const upstreams = [{ id: 'held', dialect: 'openai' as const, url: up.url, apiKey: up.apiKey }];
      const a = await gatewayOver(upstreams, opts);
      const b = await gatewayOver(upstreams, opts);
      const open: Array<Awaited<ReturnType<typeof openStream>>> = [];
      try {
        open.push(await openStream(a.url, textCall('chat', key, MODEL, true)));
        open.push(await openStream(b.url, textCall('chat', key, MODEL, true)));
        expect(open.map((o) => o.res.statusCode)).toEqual([200, 200]);
        const third = await send(a.url, textCall('messages', key, MODEL, true));
        expect(third.status).toBe(429);
        expect(errorProblem('messages', third)).toBeNull();
        open.shift()!.req.destroy();
        const next = await openWhenAdmitted(b.url, 'chat', key);
        open.push(next);
        expect(next.res.statusCode).toBe(200);
      } finally {
        for (const o of open) o.req.destroy();
        up.releaseAll();
        await a.stop();
        await b.stop();
        await up.close();
      }
    },
    120_000,
  ); // two gateways in one process: seconds each to start on a loaded machine
});
