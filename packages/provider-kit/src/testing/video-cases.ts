import type { OperationRef, VideoModelPort, VideoRequest, VideoStatus } from '@gateway/core';
import { check, type ConformanceCase, expectReason, failure, type FakeControl } from './conformance-case';

/**
 * What the worker relies on from any VideoModelPort, as data, driven through a fake's control routes: run by
 * `npx gateway adapter:test` against an outside package's own fake process.
 */
export interface VideoKitTarget {
  fake: FakeControl;
  /** the adapter as the gateway runs it, built with the key the fake accepts */
  video: VideoModelPort;
  videoWithKey(key: string): VideoModelPort;
  key: string;
}

const request = (prompt: string): VideoRequest & { upstreamModel: string } => ({
  model: 'm',
  upstreamModel: 'upstream-video-1',
  prompt,
  durationSeconds: 4,
  resolution: '720p',
  aspectRatio: '16:9',
  generateAudio: true,
  fps: 24,
});
const ctx = (taskId = 'kit-task-1') => ({ taskId, signal: new AbortController().signal });

async function settle(
  port: VideoModelPort,
  ref: OperationRef,
): Promise<{ last: Exclude<VideoStatus, { state: 'pending' }>; running: Array<boolean | undefined> }> {
  const running: Array<boolean | undefined> = [];
  for (let i = 0; i < 50; i++) {
    const s = await port.status(ref, ctx());
    if (s.state !== 'pending') return { last: s, running };
    running.push(s.running);
  }
  throw new Error(`operation ${ref} still pending after 50 polls`);
}

async function bytesOf(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

export const VIDEO_CASES: ReadonlyArray<ConformanceCase<VideoKitTarget>> = [
  {
    name: 'submit, poll and download',
    async run({ video }) {
      const ref = await video.start(request('a red kite'), ctx());
      check(typeof ref === 'string' && ref.length > 0, 'start: expected an operation reference');
      const { last, running } = await settle(video, ref);
      check(running.length > 0, 'poll: expected the job pending at least once before it ends');
      check(last.state === 'succeeded', `poll: expected success, got ${JSON.stringify(last)}`);
      const bytes = await bytesOf(await last.artifact.open());
      check(bytes.subarray(4, 8).toString('latin1') === 'ftyp', 'download: the bytes are not an MP4 (no ftyp box)');
      await last.artifact.dispose?.();
      if (video.idempotentStart) {
        const again = await video.start(request('a red kite'), ctx('kit-task-1'));
        check(again === ref, 'idempotentStart is declared, but a repeated start of the same task made a second job');
      }
    },
  },
  {
    name: 'delivered shape',
    async run({ fake, video }) {
      const ref = await video.start(request('stated'), ctx('kit-shape'));
      const { last } = await settle(video, ref);
      check(last.state === 'succeeded', `expected success, got ${JSON.stringify(last)}`);
      const a = last.artifact;
      for (const f of ['width', 'height', 'durationSeconds'] as const)
        check(a[f] === undefined || (typeof a[f] === 'number' && a[f] > 0), `the artifact's ${f} is not a positive number`);
      await fake.control('/__fake/next', { unstated: true });
      const bare = await settle(video, await video.start(request('unstated'), ctx('kit-unstated')));
      check(bare.last.state === 'succeeded', 'an answer without a shape must still succeed');
      const stated = (['width', 'height', 'durationSeconds', 'fps'] as const).filter(
        (f) => bare.last.state === 'succeeded' && bare.last.artifact[f] !== undefined,
      );
      check(
        stated.length === 0,
        `an answer that states no shape: the artifact must state none (it stated ${stated.join(', ')}), never echo the request`,
      );
    },
  },
  {
    name: 'cancel',
    async run({ fake, video }) {
      check(typeof video.cancel === 'function', 'the port has no cancel()');
      await fake.control('/__fake/next', { hold: true });
      const ref = await video.start(request('held'), ctx('kit-cancel'));
      const first = await video.status(ref, ctx());
      check(first.state === 'pending', 'a held job should be pending');
      await video.cancel!(ref);
      const log = (await fake.control('/__fake/log')) as { cancelled: string[] };
      check(log.cancelled.length === 1, 'cancel() did not reach the upstream');
      const after = await video.status(ref, ctx());
      check(after.state === 'failed', `a cancelled job should read as failed, got ${after.state}`);
    },
  },
  {
    name: 'errors mapped to the closed error table',
    async run({ fake, video }) {
      await fake.control('/__fake/next', { status: 429, retryAfter: 7 });
      const limited = await failure(video.start(request('x'), ctx('kit-e1')));
      expectReason(limited, 'rate_limited', '429');
      check(limited.retryAfterSeconds === 7, `429: expected retryAfterSeconds 7, got ${limited.retryAfterSeconds}`);
      await fake.control('/__fake/next', { status: 503 });
      expectReason(await failure(video.start(request('x'), ctx('kit-e2'))), 'upstream_unavailable', '503');
      await fake.control('/__fake/next', { status: 400, message: 'prompt too long' });
      const bad = await failure(video.start(request('x'), ctx('kit-e3')));
      expectReason(bad, 'invalid_request', '400');
      check(bad.message.includes('prompt too long'), '400: the upstream message was not kept');
      await fake.control('/__fake/next', { fail: true });
      const { last } = await settle(video, await video.start(request('x'), ctx('kit-e4')));
      check(
        last.state === 'failed' && last.code && last.message,
        `a job the upstream fails must end failed with a code and a message, got ${JSON.stringify(last)}`,
      );
    },
  },
  {
    name: 'malformed answers',
    async run({ fake, video }) {
      await fake.control('/__fake/next', { malformed: true });
      const ref = await video.start(request('x'), ctx('kit-m1'));
      expectReason(await failure(video.status(ref, ctx())), 'upstream_malformed_response', 'a job status the adapter cannot read');
    },
  },
  {
    name: "redaction of the adapter's own key",
    async run({ fake, video, videoWithKey, key }) {
      const wrong = `sk-kit-wrong-${Math.random().toString(36).slice(2)}-key`;
      const refused = await failure(videoWithKey(wrong).start(request('x'), ctx('kit-r1')));
      expectReason(refused, 'upstream_error', 'a refused key');
      check(
        !JSON.stringify({ m: refused.message, c: refused.upstreamCode }).includes(wrong.slice(4, 20)),
        'the refused key is repeated in the failure',
      );
      await fake.control('/__fake/next', { status: 400, message: `your key ${key} is not allowed here` });
      const echoed = await failure(video.start(request('x'), ctx('kit-r2')));
      check(!echoed.message.includes(key), "the upstream's echo of the key reached the failure");
    },
  },
];
