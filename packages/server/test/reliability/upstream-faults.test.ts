import { refusedUrl, startFakeUpstream, type FakeBehaviour, type FakeDialectName, type FakeUpstream, eventually } from '@gateway/testkit';
import { BETA_KEY, type TestGateway } from '../support/test-gateway';
import { startBlackhole, type Blackhole } from './support/blackhole';
import { startControlledUpstream, type ControlledUpstream } from './support/controlled-upstream';
import { startCountingProxy, type CountingProxy } from './support/counting-proxy';
import { gatewayOver, modelOf, type UpstreamEntry } from './support/gateway-over';
import { recordFigure } from './support/figures';
import { grownHandles, handleCounts, watchWarnings } from './support/resources';
import { errorCode, errorProblem, send, TEXT_FORMATS, textCall, type TextFormat } from './support/text-clients';

/**
 * Upstream faults through a started gateway whose models are served by fake upstreams: for each fault, each
 * inbound format and both modes, the client gets the right error in its format (an HTTP error, or the format's
 * in-stream error event once the stream has begun) within a client-side deadline, and the upstream connection
 * the fault spoiled is closed rather than kept. At the end no socket, handle or listener is left over.
 */
jest.setTimeout(120_000);

/** Short timeouts where the fault is a timeout; elsewhere room enough that a loaded machine is not a fault. */
const TIMEOUTS = { connectMs: 200, firstByteMs: 250, idleMs: 250, totalMs: 5000 };
const RELAXED = { connectMs: 2000, firstByteMs: 3000, idleMs: 3000, totalMs: 8000 };
const DIALECTS: FakeDialectName[] = ['openai', 'anthropic', 'gemini'];

interface Fault {
  name: string;
  via: 'fake' | 'refused' | 'blackhole' | 'held';
  dialects: FakeDialectName[];
  streams: boolean[];
  arrange?: (fake: FakeUpstream, proxy: CountingProxy, stream: boolean) => void;
  /** what the client may see: the error's HTTP status (its in-stream event carries the same code) */
  expect: Array<{ status: number; code: string }>;
  /** the connection the fault spoiled must be closed, not pooled */
  drops: boolean;
  /** a Retry-After the client must see */
  retryAfter?: string;
  /** streams: the client has had events before the fault, so the error must come as the in-stream event */
  midStream?: boolean;
}

const behave = (b: FakeBehaviour) => (fake: FakeUpstream) => fake.enqueue(b);
/** The frame index after the first two text deltas of each dialect's stream (its opening frames differ). */
const AFTER_TWO_DELTAS: Record<FakeDialectName, number> = { openai: 3, 'openai-responses': 6, anthropic: 5, gemini: 2 };
const UNREACHABLE = { status: 503, code: 'upstream_unreachable' };
const UNAVAILABLE = { status: 503, code: 'upstream_unavailable' };
const TIMEOUT = { status: 504, code: 'upstream_timeout' };
const MALFORMED = { status: 502, code: 'upstream_malformed_response' };

const FAULTS: Fault[] = [
  { name: 'connection refused', via: 'refused', dialects: ['openai'], streams: [false, true], expect: [UNREACHABLE], drops: false },
  { name: 'connect timeout', via: 'blackhole', dialects: ['openai'], streams: [false, true], expect: [TIMEOUT], drops: false },
  {
    name: 'no answer (first-byte timeout)',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false, true],
    arrange: behave({ hang: true }),
    expect: [TIMEOUT],
    drops: true,
  },
  {
    name: 'reset before headers',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false, true],
    arrange: behave({ reset: 'before-headers' }),
    expect: [UNREACHABLE],
    drops: true,
  },
  {
    name: 'reset mid-body',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false, true],
    expect: [UNREACHABLE],
    drops: true,
    midStream: true,
    // a pause before each frame, so the frames before the reset reach the client first
    arrange: (fake, proxy, stream) =>
      stream ? fake.enqueue({ reset: AFTER_TWO_DELTAS[fake.dialect], chunkDelayMs: 40 }) : proxy.cutNextResponse(260),
  },
  {
    name: 'stall mid-stream (idle timeout)',
    via: 'held',
    dialects: DIALECTS,
    streams: [true],
    expect: [TIMEOUT],
    drops: true,
    midStream: true,
  },
  {
    name: '429 with Retry-After',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false, true],
    arrange: behave({ status: 429, headers: { 'retry-after': '7' } }),
    expect: [{ status: 429, code: 'upstream_rate_limited' }],
    drops: false,
    retryAfter: '7',
  },
  {
    name: '500',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false, true],
    arrange: behave({ status: 500 }),
    expect: [UNAVAILABLE],
    drops: false,
  },
  {
    name: 'garbage JSON',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false],
    arrange: behave({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body: '<html>not json</html>' } }),
    expect: [MALFORMED],
    drops: false,
  },
  {
    name: 'truncated JSON',
    via: 'fake',
    dialects: DIALECTS,
    streams: [false],
    arrange: behave({
      raw: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"x","choices":[{"index":0,"mess' },
    }),
    expect: [MALFORMED],
    drops: false,
  },
  {
    name: 'garbage SSE',
    via: 'fake',
    dialects: DIALECTS,
    streams: [true],
    arrange: behave({ raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: {"nope\n\ndata: ]]]\n\n' } }),
    expect: [MALFORMED],
    drops: false,
  },
  // Gemini streams have no end marker: for them the cut comes before the chunk with finishReason.
  {
    name: 'SSE without terminator',
    via: 'fake',
    dialects: DIALECTS,
    streams: [true],
    arrange: behave({ truncateAfter: 2 }),
    expect: [{ status: 503, code: 'upstream_stream_truncated' }],
    drops: false,
  },
  {
    name: 'error event mid-stream',
    via: 'fake',
    dialects: DIALECTS,
    streams: [true],
    arrange: behave({ streamErrorAfter: 2 }),
    drops: false,
    // OpenAI's bare error chunk and Gemini's error chunk carry no reason the gateway knows; Anthropic's says overloaded.
    expect: [{ status: 502, code: 'upstream_stream_error' }, UNAVAILABLE],
  },
];

let gw: TestGateway;
const fakes = {} as Record<FakeDialectName, FakeUpstream>;
const proxies = {} as Record<FakeDialectName, CountingProxy>;
const held = {} as Record<FakeDialectName, ControlledUpstream>;
let blackhole: Blackhole | null;
let baseline: Record<string, number>;
const warnings = watchWarnings();
const outcomes: string[] = [];

/** One provider (and model) per fault × dialect × format, so no case trips another's circuit breaker. */
const providerId = (f: Fault, d: FakeDialectName, format: TextFormat) => `${f.name.replace(/\W+/g, '-')}-${d}-${format}`.toLowerCase();

beforeAll(async () => {
  baseline = handleCounts();
  blackhole = await startBlackhole();
  const refused = await refusedUrl('/v1');
  for (const d of DIALECTS) {
    fakes[d] = await startFakeUpstream(d);
    proxies[d] = await startCountingProxy(fakes[d].url);
    held[d] = await startControlledUpstream(d, 'hold');
  }
  const entries: UpstreamEntry[] = [];
  for (const f of FAULTS) {
    for (const d of f.dialects) {
      for (const format of TEXT_FORMATS) {
        const url =
          f.via === 'refused'
            ? refused
            : f.via === 'blackhole'
              ? `${blackhole?.url ?? refused}/v1`
              : f.via === 'held'
                ? held[d].url
                : proxies[d].url;
        const timeouts = f.expect.includes(TIMEOUT) ? TIMEOUTS : RELAXED;
        entries.push({
          id: providerId(f, d, format),
          dialect: d,
          url,
          apiKey: f.via === 'held' ? held[d].apiKey : fakes[d].apiKey,
          timeouts,
        });
      }
    }
  }
  for (const name of ['burst-429', 'burst-503'])
    entries.push({ id: name, dialect: 'openai', url: proxies.openai.url, apiKey: fakes.openai.apiKey, timeouts: RELAXED });
  gw = await gatewayOver(entries);
});

afterAll(async () => {
  recordFigure('upstream faults injected', outcomes.length);
  for (const d of DIALECTS) held[d].releaseAll();
  await gw?.stop();
  // Once the gateway is closed, every connection it had to an upstream is gone.
  // the bounds are generous for a loaded 2-core machine: the checks return as soon as they hold
  expect(await eventually(() => DIALECTS.every((d) => proxies[d].open() === 0 && held[d].openSockets() === 0), 15_000)).toBe(true);
  for (const d of DIALECTS) await Promise.all([proxies[d].close(), fakes[d].close(), held[d].close()]);
  blackhole?.close();
  warnings.stop();
  // No listener piled up on a long-lived emitter, and every socket, server and timer of the run is gone.
  expect(warnings.seen()).toEqual([]);
  expect(await eventually(() => grownHandles(baseline, handleCounts()).length === 0, 15_000)).toBe(true);
});

const cases = FAULTS.flatMap((f) =>
  f.dialects.flatMap((d) => TEXT_FORMATS.flatMap((format) => f.streams.map((stream) => ({ f, d, format, stream })))),
);

describe.each(cases)('$f.name from $d upstream to $format (stream: $stream)', ({ f, d, format, stream }) => {
  it("the right error in the caller's format, no hang, the spoiled connection closed", async () => {
    if (f.via === 'blackhole' && !blackhole) return; // no python3 to hold a port half-open
    const proxy = proxies[d];
    const openBefore = proxy.open();
    f.arrange?.(fakes[d], proxy, stream);
    const answer = await send(gw.url, textCall(format, BETA_KEY, modelOf(providerId(f, d, format)), stream), 8000);
    const got = errorCode(format, answer);
    outcomes.push(
      `${f.name} ${d}→${format}${stream ? ' stream' : ''}: ${answer.status} ${got?.code}${got?.inStream ? ' (in stream)' : ''}`,
    );
    expect(errorProblem(format, answer)).toBeNull();
    // Before the first byte the error is an HTTP status; after it, the in-stream event carries the same code.
    const seen = f.expect.find((e) => e.code === got?.code);
    expect({ code: got?.code, status: got?.inStream ? seen?.status : answer.status }).toEqual(seen ?? f.expect[0]);
    if (f.retryAfter) expect(answer.headers.get('retry-after')).toBe(f.retryAfter);
    if (f.midStream && stream) expect(got?.inStream).toBe(true);
    if (f.drops && f.via === 'fake') {
      // the fault's connection (the only one this case used) is closed, not handed back to the pool
      expect(await eventually(() => proxy.open() <= openBefore, 2000)).toBe(true);
    }
    if (f.via === 'held') expect(await eventually(() => held[d].streams.at(-1)?.closedAt != null, 2000)).toBe(true);
  });
});

describe('bursts', () => {
  it.each([
    { name: '429', behaviour: { status: 429, headers: { 'retry-after': '3' } }, statuses: [429, 503] },
    { name: '503', behaviour: { status: 503 }, statuses: [503] },
  ])(
    'a burst of upstream $name: every client gets an answer in its format quickly; the breaker stops the flood',
    async ({ name, behaviour, statuses }) => {
      const fake = fakes.openai;
      fake.reset();
      fake.setDefault(behaviour);
      const id = `burst-${name}`;
      const seenBefore = fake.requests.length;
      try {
        const answers = await Promise.all(
          Array.from({ length: 24 }, (_, i) => send(gw.url, textCall(TEXT_FORMATS[i % 4]!, BETA_KEY, modelOf(id), i % 2 === 0), 8000)),
        );
        answers.forEach((a, i) => {
          expect(statuses).toContain(a.status);
          expect(errorProblem(TEXT_FORMATS[i % 4]!, a)).toBeNull();
        });
        outcomes.push(...answers.map((a) => `burst ${behaviour.status}: ${a.status}`));
        expect(answers.filter((a) => a.status === 429).every((a) => a.headers.get('retry-after') === '3')).toBe(true);
        // A tripped breaker answers without calling the upstream.
        expect(fake.requests.length - seenBefore).toBeLessThanOrEqual(24);
      } finally {
        fake.reset();
      }
    },
  );
});
