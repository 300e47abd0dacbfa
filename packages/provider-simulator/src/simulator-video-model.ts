import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  GatewayError,
  resolveRatio,
  videoDimensions,
  type OperationRef,
  type VideoArtifact,
  type VideoModelPort,
  type VideoRequest,
  type VideoStatus,
} from '@gateway/provider-kit';
import { hash } from './simulated-arguments';
import { FAIL_MARKER } from './simulator-text-model';
import { RenderSlots } from './render-slots';
import { renderVideo, type RenderSpec } from './simulator-video-render';

export interface SimulatorVideoOptions {
  /** how long an operation reports queued */
  queuedMs?: number;
  /** how long it then reports running, before it succeeds (or fails) */
  videoLatencyMs?: number;
  /** renders go to <dataDir>/simulator/videos */
  dataDir?: string;
  /** ffmpeg renders at once (default: the machine's cores); further polls wait for a slot */
  renderConcurrency?: number;
  /** tests: replaces the ffmpeg render */
  render?: typeof renderVideo;
  now?: () => number;
}

/** Everything status() needs travels in the operation ref, so an operation survives a gateway restart. */
interface SimOperation extends RenderSpec {
  task: string;
  startedAt: number;
  fail: boolean;
}

const PREFIX = 'sim1.';

/**
 * The simulator's video upstream: queued for queuedMs, running for videoLatencyMs, then a real
 * H.264 MP4 (requested duration, size and fps; AAC audio when asked) rendered with ffmpeg on the
 * first poll after that. `[sim:fail]` in the prompt makes the operation fail instead.
 */
export class SimulatorVideoModel implements VideoModelPort {
  /** Starting has no side effect (nothing renders until polled), so repeating a start cannot duplicate work. */
  readonly idempotentStart = true;
  /** A remix renders anew with the new prompt (and looks different from its source). */
  readonly remix = true;
  private readonly renders = new Map<string, Promise<void>>();
  private readonly dir: string;
  private readonly now: () => number;
  private readonly slots: RenderSlots;
  private readonly renderFile: typeof renderVideo;

  constructor(private readonly opts: SimulatorVideoOptions = {}) {
    this.dir = path.join(opts.dataDir ?? path.join(os.tmpdir(), 'gateway-simulator'), 'simulator', 'videos');
    this.now = opts.now ?? Date.now;
    this.slots = new RenderSlots(opts.renderConcurrency ?? Math.max(1, os.availableParallelism()));
    this.renderFile = opts.render ?? renderVideo;
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { taskId: string }): Promise<OperationRef> {
    const ratio = resolveRatio(req.aspectRatio, req.firstFrame);
    const { width, height } = videoDimensions(req.resolution, ratio);
    const op: SimOperation = {
      task: ctx.taskId,
      startedAt: this.now(),
      width,
      height,
      durationSeconds: req.durationSeconds,
      fps: req.fps,
      audio: req.generateAudio,
      seed: hash(`${req.prompt ?? ''}|${req.upstreamModel}${req.remixOf ? `|remix:${req.remixOf.taskId}` : ''}`),
      fail: (req.prompt ?? '').includes(FAIL_MARKER),
    };
    return PREFIX + Buffer.from(JSON.stringify(op)).toString('base64url');
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal } = {}): Promise<VideoStatus> {
    const op = decode(ref);
    const elapsed = this.now() - op.startedAt;
    const queuedMs = this.opts.queuedMs ?? 0;
    const latency = this.opts.videoLatencyMs ?? 1000;
    if (elapsed < queuedMs) return { state: 'pending', running: false, progress: 0 };
    if (elapsed < queuedMs + latency)
      return { state: 'pending', running: true, progress: Math.floor((100 * (elapsed - queuedMs)) / latency) };
    if (op.fail)
      return {
        state: 'failed',
        code: 'simulated_failure',
        message: `The simulator was asked to fail: the prompt contains ${FAIL_MARKER}.`,
      };
    const base = path.join(this.dir, `${op.task}-${hash(ref).toString(36)}`);
    await this.render(op, `${base}.mp4`, `${base}.jpg`, ctx.signal);
    return { state: 'succeeded', artifact: this.artifact(op, `${base}.mp4`, `${base}.jpg`) };
  }

  /** Renders once per file, however many polls ask at the same time; an existing render is reused. */
  private async render(op: SimOperation, mp4: string, jpeg: string, signal?: AbortSignal): Promise<void> {
    if (
      await stat(mp4).then(
        () => true,
        () => false,
      )
    )
      return;
    let pending = this.renders.get(mp4);
    if (!pending) {
      pending = mkdir(this.dir, { recursive: true })
        .then(() => this.slots.run(() => this.renderFile(op, mp4, jpeg, signal), signal))
        .finally(() => this.renders.delete(mp4));
      this.renders.set(mp4, pending);
    }
    await pending;
  }

  private artifact(op: SimOperation, mp4: string, jpeg: string): VideoArtifact {
    return {
      width: op.width,
      height: op.height,
      durationSeconds: op.durationSeconds,
      fps: op.fps,
      open: async () => createReadStream(mp4),
      thumbnail: { mediaType: 'image/jpeg', open: async () => createReadStream(jpeg) },
      // The gateway keeps its own copy; the simulator's render is scratch.
      dispose: async () => {
        await Promise.all([rm(mp4, { force: true }), rm(jpeg, { force: true })]);
      },
    };
  }
}

function decode(ref: string): SimOperation {
  try {
    if (!ref.startsWith(PREFIX)) throw new Error('prefix');
    const op = JSON.parse(Buffer.from(ref.slice(PREFIX.length), 'base64url').toString()) as SimOperation;
    const ints = [op.width, op.height, op.durationSeconds, op.fps, op.seed];
    if (typeof op.task !== 'string' || !/^[a-z0-9]+$/.test(op.task) || !Number.isFinite(op.startedAt) || !ints.every(Number.isInteger)) {
      throw new Error('shape');
    }
    return op;
  } catch {
    throw new GatewayError('not_found', 'The simulator knows no such video operation.', { code: 'operation_not_found' });
  }
}
