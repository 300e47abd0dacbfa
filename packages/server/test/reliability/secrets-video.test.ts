/**
 * Video upstreams (Veo, Sora, Ark) that quote their credential in task failures (code and message) and in a
 * refused creation: the key reaches no video format's answer, no stored row and no log line.
 */
import { startFakeArk, type FakeArk } from '@gateway/provider-ark/testing';
import { startFakeVeo, type FakeVeo } from '@gateway/provider-google/testing';
import { startFakeSora, type FakeSora } from '@gateway/provider-openai/testing';
import {
  INBOUND_FORMATS,
  inbound,
  settle,
  UPSTREAM_MODELS,
  upstreamVideoConfig,
  type UpstreamName,
} from '../support/upstream-video-gateways';
import { startCapturingGateway, type CapturingGateway } from './support/capturing-gateway';
import { spellingsOf } from './support/echo-upstream';

jest.setTimeout(120_000);

const KEYS: Record<UpstreamName, string> = { veo: 'AIzaSyVeo7Kp2Lm9Qx4RtW', sora: 'sk-proj-Sora8Hn3Jd6Wq1', ark: 'ark-Kx5Vb2Nm8Lp4Zt7Gh' };
const UPSTREAMS = Object.keys(KEYS) as UpstreamName[];
const fragments = (k: string) => Array.from({ length: k.length - 7 }, (_, i) => k.slice(i, i + 8).toLowerCase());
const FRAGMENTS = Object.values(KEYS).flatMap(fragments);
const leaks = (text: string) => FRAGMENTS.filter((f) => text.toLowerCase().includes(f));

/** the upstream's own failure bodies, quoting its key */
const refusal: Record<UpstreamName, (k: string) => unknown> = {
  veo: (k) => ({ error: { code: 400, message: `bad request from ${spellingsOf(k)}`, status: 'INVALID_ARGUMENT' } }),
  sora: (k) => ({ error: { message: `bad request from ${spellingsOf(k)}`, type: 'invalid_request_error', code: k, param: k } }),
  ark: (k) => ({ error: { code: `InvalidParameter.${k}`, message: `bad request from ${spellingsOf(k)}`, type: 'BadRequest' } }),
};

/** a worker that claims and polls quickly, so a task settles within the test */
const WORKER = { intervalMs: 25, pollMinMs: 60, pollMaxMs: 200 };
let fakes: { veo: FakeVeo; sora: FakeSora; ark: FakeArk };
let gw: CapturingGateway;

beforeAll(async () => {
  // every render fails, its code and message quoting the key the upstream was given
  const failing = (k: string) => ({
    queuedMs: 30,
    runningMs: 60,
    apiKey: k,
    script: () => ({ outcome: 'failed' as const, failCode: `E_${k}`, failMessage: `render failed for ${spellingsOf(k)}` }),
  });
  fakes = {
    veo: await startFakeVeo(failing(KEYS.veo)),
    sora: await startFakeSora(failing(KEYS.sora)),
    ark: await startFakeArk(failing(KEYS.ark)),
  };
  gw = await startCapturingGateway(upstreamVideoConfig(fakes), { videoWorker: WORKER });
  await gw.startBackground();
});

afterAll(async () => {
  await gw?.stop();
  await Promise.all(Object.values(fakes ?? {}).map((f) => f.close()));
});

describe('video upstreams that quote their key', () => {
  it.each(UPSTREAMS)('%s: failed renders and refused creations, read in all three formats, hold no fragment of a key', async (up) => {
    const ids: string[] = [];
    for (const format of INBOUND_FORMATS) {
      const client = inbound(format, gw.url);
      const failed = await client.create(UPSTREAM_MODELS[up], `render ${format}`);
      expect(failed.status).toBe(200);
      ids.push(failed.id);
      fakes[up].api.failNext('create', 1, { status: 400, body: refusal[up](KEYS[up]) });
      const refused = await client.create(UPSTREAM_MODELS[up], `refused ${format}`);
      expect(refused.status).toBe(200);
      ids.push(refused.id);
    }
    for (const id of ids) expect(await settle(gw.url, id)).toMatchObject({ status: 'failed' });
    for (const format of INBOUND_FORMATS) {
      for (const id of ids) {
        const view = await inbound(format, gw.url).read(id);
        expect(view.status).toMatch(/failed/);
        const text = JSON.stringify(view);
        expect({ format, id, leaks: leaks(text) }).toEqual({ format, id, leaks: [] });
        // the failure is still explained, with the key cut out
        expect(text).toContain('[redacted]');
      }
    }
    expect(fakes[up].book.submissions.length).toBeGreaterThanOrEqual(3);
  });

  it('no stored row and no log line holds a fragment of a key', async () => {
    expect(leaks(await gw.storedText())).toEqual([]);
    expect(leaks(gw.log())).toEqual([]);
  });
});
