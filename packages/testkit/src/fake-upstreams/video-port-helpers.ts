import type { OperationRef, VideoImage, VideoModelPort, VideoRequest, VideoStatus } from '@gateway/core';
import { ManualClock } from '../fakes/manual-clock';
import type { VideoConformanceTarget } from './video-model.conformance';

/** A canonical request with the defaults the limits table would apply. */
export function videoRequest(over: Partial<VideoRequest> & { upstreamModel?: string } = {}): VideoRequest & { upstreamModel: string } {
  return {
    model: 'm',
    upstreamModel: 'up-model',
    prompt: 'a red kite',
    durationSeconds: 4,
    resolution: '720p',
    aspectRatio: '16:9',
    generateAudio: true,
    fps: 24,
    ...over,
  };
}

/** Polls a port until the operation is no longer pending (real time; the fakes run tasks on the wall clock). */
export async function pollUntilSettled(
  port: VideoModelPort,
  ref: OperationRef,
  opts: { taskId?: string; timeoutMs?: number; everyMs?: number; clock?: { advance(ms: number): void } } = {},
): Promise<Exclude<VideoStatus, { state: 'pending' }> & { pendingSeen: Array<boolean | undefined> }> {
  const end = Date.now() + (opts.timeoutMs ?? 10_000);
  const pendingSeen: Array<boolean | undefined> = [];
  for (;;) {
    const st = await port.status(ref, { taskId: opts.taskId ?? 'task0' });
    if (st.state !== 'pending') return { ...st, pendingSeen };
    pendingSeen.push(st.running);
    if (Date.now() > end) throw new Error(`operation ${ref} still pending`);
    // With the fake's clock in hand the test moves time itself: every state is seen however loaded the machine is.
    if (opts.clock) opts.clock.advance(opts.everyMs ?? 20);
    else await new Promise((r) => setTimeout(r, opts.everyMs ?? 20));
  }
}

export async function readStream(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

/** A frame as an adapter receives it, with bytes `png:<tag>` so a converter's Base64 or data URL is predictable. */
export function taggedFrame(width: number, height: number, tag: string): VideoImage {
  return { mediaType: 'image/png', data: Buffer.from(`png:${tag}`), width, height };
}
export const taggedBase64 = (tag: string): string => Buffer.from(`png:${tag}`).toString('base64');
export const taggedDataUrl = (tag: string): string => `data:image/png;base64,${taggedBase64(tag)}`;

interface ClosableFake {
  url: string;
  close(): Promise<void>;
}
interface ClosableProvider {
  video: VideoModelPort;
  close(): void;
}

export interface FakeVideoUpstreamEnv<F, P extends ClosableProvider> {
  clock: ManualClock;
  fake: F;
  provider: P;
  /** starts `request` (task id `t`) with the provider and polls it to its end on the fake's clock */
  settle(request: Parameters<VideoModelPort['start']>[0]): ReturnType<typeof pollUntilSettled>;
}

/**
 * A fake upstream on a manual clock and a provider connected to it, started before the enclosing suite's tests and
 * closed after them. `connect(fake)` builds the provider with the fake's own credentials.
 */
export function useFakeVideoUpstream<F extends ClosableFake, P extends ClosableProvider>(
  start: (clock: ManualClock) => Promise<F>,
  connect: (fake: F) => P,
): FakeVideoUpstreamEnv<F, P> {
  const clock = new ManualClock();
  const env = {
    clock,
    settle: async (request) => pollUntilSettled(env.provider.video, await env.provider.video.start(request, { taskId: 't' }), { clock }),
  } as FakeVideoUpstreamEnv<F, P>;
  beforeAll(async () => {
    env.fake = await start(clock);
    env.provider = connect(env.fake);
  });
  afterAll(async () => {
    env.provider?.close();
    await env.fake?.close();
  });
  return env;
}

/**
 * What every fake-backed video conformance target states alike: the adapter with the fake's credentials, the same
 * adapter with `wrongKey`, the clock, and closing all three. `connect(fake, apiKey?)` uses the fake's key when none is given.
 */
export async function fakeVideoConformanceBase<F extends ClosableFake, P extends ClosableProvider>(
  start: (clock: ManualClock) => Promise<F>,
  connect: (fake: F, apiKey?: string) => P,
  wrongKey: string,
): Promise<{ fake: F; base: Pick<VideoConformanceTarget, 'model' | 'badCredentialsModel' | 'advance' | 'close'> }> {
  const clock = new ManualClock();
  const fake = await start(clock);
  const good = connect(fake);
  const bad = connect(fake, wrongKey);
  return {
    fake,
    base: {
      model: good.video,
      badCredentialsModel: bad.video,
      advance: (ms) => clock.advance(ms),
      close: async () => {
        good.close();
        bad.close();
        await fake.close();
      },
    },
  };
}
