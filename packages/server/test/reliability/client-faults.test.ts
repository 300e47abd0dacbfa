import { eventually } from '@gateway/testkit';
import type { FakeDialectName } from '@gateway/testkit';
import { BETA_KEY, type TestGateway } from '../support/test-gateway';
import { startControlledUpstream, type ControlledUpstream } from './support/controlled-upstream';
import { recordFigure } from './support/figures';
import { gatewayOver, modelOf } from './support/gateway-over';
import { openStream, TEXT_FORMATS, textCall } from './support/text-clients';

/**
 * Client faults. A client that goes away mid-stream ends the upstream call within a second (the upstream sees its
 * connection closed), for every inbound format and upstream dialect. A client that stops reading stops the
 * upstream too: the gateway only reads as fast as it can write (SseWriter waits for 'drain'), so an endless
 * upstream ends up blocked on its own writes, with a bounded number of bytes in flight.
 */
jest.setTimeout(60_000);

const DIALECTS: FakeDialectName[] = ['openai', 'anthropic', 'gemini'];
let gw: TestGateway;
const held = {} as Record<FakeDialectName, ControlledUpstream>;
let endless: ControlledUpstream;
let disconnects = 0;
const inFlight: number[] = [];

beforeAll(async () => {
  for (const d of DIALECTS) held[d] = await startControlledUpstream(d, 'hold');
  endless = await startControlledUpstream('openai', 'endless');
  gw = await gatewayOver([
    ...DIALECTS.map((d) => ({ id: `held-${d}`, dialect: d, url: held[d].url, apiKey: held[d].apiKey })),
    { id: 'endless', dialect: 'openai' as const, url: endless.url, apiKey: endless.apiKey },
  ]);
});
afterAll(async () => {
  recordFigure('client disconnects injected', disconnects);
  recordFigure('slow readers injected', inFlight.length);
  recordFigure('largest bytes in flight to a paused reader', Math.max(0, ...inFlight));
  for (const d of DIALECTS) held[d].releaseAll();
  await gw.stop();
  await Promise.all([...DIALECTS.map((d) => held[d].close()), endless.close()]);
});

const cases = DIALECTS.flatMap((d) => TEXT_FORMATS.map((format) => ({ d, format })));

describe.each(cases)('client gone mid-stream: $format from a $d upstream', ({ d, format }) => {
  it('the upstream connection is closed within one second', async () => {
    const { req, res } = await openStream(gw.url, textCall(format, BETA_KEY, modelOf(`held-${d}`), true));
    expect(res.statusCode).toBe(200);
    // wait for the first event, so the stream is really under way
    await new Promise<void>((r) => res.once('data', () => r()));
    const upstream = held[d].streams.at(-1)!;
    expect(upstream.closedAt).toBeNull();
    const gone = Date.now();
    req.destroy();
    disconnects++;
    expect(await eventually(() => upstream.closedAt !== null, 2000, 10)).toBe(true);
    expect(upstream.closedAt! - gone).toBeLessThan(1000);
    expect(upstream.finished).toBe(false);
  });
});

describe.each(TEXT_FORMATS)('slow reader: %s', (format) => {
  it('a client that stops reading blocks the upstream; bytes in flight stay bounded; reading again resumes', async () => {
    const { req, res } = await openStream(gw.url, textCall(format, BETA_KEY, modelOf('endless'), true));
    try {
      expect(res.statusCode).toBe(200);
      let received = 0;
      res.on('data', (d: Buffer) => (received += d.length));
      await eventually(() => received > 64 * 1024, 3000);
      res.pause();
      const upstream = endless.streams.at(-1)!;
      // Kernel and stream buffers fill (loopback buffers grow to a few MB), then the gateway stops reading and
      // the upstream's writes block for good: blocked, and its byte count still for a whole second.
      let stableSince = Date.now();
      let last = -1;
      const stopped = await eventually(
        () => {
          if (upstream.bytesWritten !== last || !upstream.blocked) {
            last = upstream.bytesWritten;
            stableSince = Date.now();
          }
          return Date.now() - stableSince >= 1000;
        },
        15_000,
        50,
      );
      expect(stopped).toBe(true);
      // What is in flight is bounded by socket and stream buffers, not by how long the reader sleeps.
      expect(upstream.bytesWritten - received).toBeLessThan(64 * 1024 * 1024);
      inFlight.push(upstream.bytesWritten - received);
      const writtenAtBlock = upstream.bytesWritten;
      res.resume();
      expect(await eventually(() => upstream.bytesWritten > writtenAtBlock + 256 * 1024, 5000)).toBe(true);
    } finally {
      req.destroy();
    }
  });
});
