import type { VideoRequest } from '../video-limits';

/** Opaque to everyone but the adapter that made it. */
export type OperationRef = string;

export type VideoStatus =
  /** `running: false` while the upstream still has it queued (the task stays queued, and cancellable); absent means running */
  | { state: 'pending'; progress?: number; running?: boolean }
  | { state: 'succeeded'; artifact: VideoArtifact }
  | { state: 'failed'; code: string; message: string };

export interface VideoArtifact {
  /** a readable stream of the MP4 bytes (the worker copies it into the content store) */
  open(): Promise<NodeJS.ReadableStream>;
  /**
   * The delivered shape, as the upstream's answer states it. Leave out what the answer does not state (never echo
   * the request): the worker then probes the stored file (VideoProbe), and the charge settles on what was measured.
   */
  width?: number;
  height?: number;
  durationSeconds?: number;
  fps?: number;
  /** a still frame, when the upstream offers one */
  thumbnail?: { mediaType: 'image/jpeg' | 'image/png'; open(): Promise<NodeJS.ReadableStream> };
  /** called once the bytes are safely copied: the adapter may free what it kept */
  dispose?(): Promise<void>;
}

/** An upstream that renders video asynchronously: start once, then poll. */
export interface VideoModelPort {
  start(request: VideoRequest & { upstreamModel: string }, ctx: { taskId: string; signal?: AbortSignal }): Promise<OperationRef>;
  status(ref: OperationRef, ctx: { taskId: string; signal?: AbortSignal }): Promise<VideoStatus>;
  cancel?(ref: OperationRef): Promise<void>;
  /**
   * What this upstream cannot render (reference images, a last frame, a resolution, a duration …) is
   * refused here with a GatewayError invalid_request: VideoTasks calls it at creation, before the task
   * is stored, so nothing reaches the upstream. Absent: everything the limits table allows is accepted.
   */
  check?(request: VideoRequest & { upstreamModel: string }): void;
  /**
   * True when calling start() again for the same ctx.taskId cannot cause a second generation (the
   * upstream deduplicates by task id, or starting has no side effect). Only then may the worker repeat
   * a start whose outcome was lost; otherwise such a task fails with `submission_unknown`.
   */
  readonly idempotentStart?: boolean;
  /** True when start() honours `request.remixOf` (a new take of an earlier video of this upstream); else remix is refused. */
  readonly remix?: boolean;
}
