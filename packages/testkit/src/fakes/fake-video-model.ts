import { Readable } from 'node:stream';
import type { OperationRef, VideoArtifact, VideoModelPort, VideoRequest, VideoStatus } from '@gateway/core';

/** What one poll of a fake operation answers; `throw` makes status() reject with that error. */
export type FakeStep = VideoStatus | { state: 'throw'; error: Error };

export interface FakeVideoModelOptions {
  /** the answers to successive polls of one operation; the last one repeats */
  plan?: (request: VideoRequest, taskId: string) => FakeStep[];
  idempotentStart?: boolean;
  /** declares remix support (start() then sees request.remixOf) */
  remix?: boolean;
  /** runs inside start() before it returns; throw to simulate a refusal, or never resolve to simulate a hang */
  onStart?: (taskId: string, call: number) => void | Promise<void>;
}

/** `stated: false`: an upstream whose answer does not state the delivered shape (the worker probes the file). */
export function fakeArtifact(
  o: {
    width?: number;
    height?: number;
    durationSeconds?: number;
    fps?: number;
    bytes?: Buffer;
    thumbnail?: boolean;
    stated?: boolean;
  } = {},
): VideoArtifact {
  const bytes = o.bytes ?? Buffer.from('fake-mp4-bytes');
  const shape = { width: o.width ?? 1280, height: o.height ?? 720, durationSeconds: o.durationSeconds ?? 5, fps: o.fps ?? 24 };
  return {
    ...(o.stated === false ? {} : shape),
    open: async () => Readable.from([bytes]),
    thumbnail: o.thumbnail === false ? undefined : { mediaType: 'image/jpeg', open: async () => Readable.from([Buffer.from('fake-jpeg')]) },
  };
}

export const DEFAULT_PLAN = (): FakeStep[] => [
  { state: 'pending', running: false },
  { state: 'pending', progress: 50 },
  { state: 'succeeded', artifact: fakeArtifact() },
];

interface Operation {
  ref: OperationRef;
  taskId: string;
  steps: FakeStep[];
  polls: number;
  cancelled: boolean;
}

/** A scriptable VideoModelPort that records every call: how many operations were really created, polls, cancels. */
export class FakeVideoModel implements VideoModelPort {
  readonly operations = new Map<OperationRef, Operation>();
  readonly startCalls: string[] = [];
  readonly statusCalls: Array<{ ref: OperationRef; taskId: string }> = [];
  readonly cancelled: OperationRef[] = [];
  readonly idempotentStart: boolean;
  readonly remix: boolean;
  /** the request of every start() call, in order */
  readonly startRequests: VideoRequest[] = [];

  constructor(private readonly opts: FakeVideoModelOptions = {}) {
    this.idempotentStart = opts.idempotentStart ?? false;
    this.remix = opts.remix ?? false;
  }

  /** Operations created upstream (a deduplicated start creates none). */
  get submissions(): number {
    return this.operations.size;
  }

  async start(request: VideoRequest & { upstreamModel: string }, ctx: { taskId: string }): Promise<OperationRef> {
    this.startCalls.push(ctx.taskId);
    this.startRequests.push(request);
    await this.opts.onStart?.(ctx.taskId, this.startCalls.length);
    if (this.idempotentStart) {
      for (const op of this.operations.values()) if (op.taskId === ctx.taskId) return op.ref;
    }
    const ref = `op-${this.operations.size + 1}-${ctx.taskId}`;
    this.operations.set(ref, {
      ref,
      taskId: ctx.taskId,
      steps: (this.opts.plan ?? DEFAULT_PLAN)(request, ctx.taskId),
      polls: 0,
      cancelled: false,
    });
    return ref;
  }

  async status(ref: OperationRef, ctx: { taskId: string }): Promise<VideoStatus> {
    this.statusCalls.push({ ref, taskId: ctx.taskId });
    const op = this.operations.get(ref);
    if (!op) throw new Error(`unknown operation ${ref}`);
    const step = op.steps[Math.min(op.polls++, op.steps.length - 1)]!;
    if (step.state === 'throw') throw step.error;
    return step;
  }

  async cancel(ref: OperationRef): Promise<void> {
    this.cancelled.push(ref);
    const op = this.operations.get(ref);
    if (op) op.cancelled = true;
  }
}
