/**
 * The contract between the video wire formats and the video use case. The wire adapters
 * (wire-gemini-video, wire-openai-videos, wire-video-tasks) decode their format into
 * CreateVideoTaskInput and encode VideoTask; the use case owns limits, ownership, idempotency,
 * the active-task cap and the store.
 */
import type { Principal } from '../auth';
import type { VideoRequestDraft } from '../video-limits';
import type { TaskStatus, VideoTask } from '../video-task';

export interface CreateVideoTaskInput {
  principal: Principal;
  modelId: string;
  draft: VideoRequestDraft;
  /** the wire format, for the usage log */
  format: string;
  requestId: string;
  idempotencyKey?: string;
  priority?: number;
  serviceTier?: string;
  /** seconds; default VIDEO_DEFAULTS.executionExpiresAfter */
  executionExpiresAfter?: number;
  /** POSTed the task at every status change (the task-read format's callback_url) */
  callbackUrl?: string;
}

/** A new take of a succeeded task's video with another prompt: same model, duration, size and audio as the source. */
export interface RemixVideoTaskInput {
  principal: Principal;
  sourceId: string;
  prompt: string;
  format: string;
  requestId: string;
  idempotencyKey?: string;
}

export interface ListVideoTasksQuery {
  limit: number;
  order: 'asc' | 'desc';
  /** cursor: a task id (OpenAI style) */
  after?: string;
  /** offset paging (Ark style page_num/page_size) */
  offset?: number;
  status?: TaskStatus;
  model?: string;
  ids?: string[];
}

export interface VideoContent {
  mediaType: string;
  size: number;
  /** a byte range [start, end] inclusive, or the whole file */
  open(range?: { start: number; end: number }): NodeJS.ReadableStream;
}

export interface VideoTaskService {
  /** Validates (limits table), enforces the cap, honours Idempotency-Key, stores, logs usage. */
  create(input: CreateVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }>;
  /** A remix, created like any task (cap, idempotency, billing); the source must be this account's and succeeded. */
  remix(input: RemixVideoTaskInput): Promise<{ task: VideoTask; replayed: boolean }>;
  /** not_found for unknown ids and other accounts' ids alike. */
  get(principal: Principal, id: string): Promise<VideoTask>;
  list(principal: Principal, query: ListVideoTasksQuery): Promise<{ items: VideoTask[]; hasMore: boolean; total: number }>;
  /** queued → cancelled; terminal → deleted (record and content); running → conflict (refused). */
  cancelOrDelete(principal: Principal, id: string): Promise<{ outcome: 'cancelled' | 'deleted'; task: VideoTask }>;
  /** The MP4 (or a thumbnail) of a succeeded task. */
  content(principal: Principal, id: string, variant: 'video' | 'thumbnail'): Promise<VideoContent>;
}
