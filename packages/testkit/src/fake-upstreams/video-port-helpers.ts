import type { OperationRef, VideoModelPort, VideoRequest, VideoStatus } from '@gateway/core';

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
