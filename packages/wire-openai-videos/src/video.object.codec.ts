import { resolveRatio, VIDEO_DEFAULTS, videoDimensions, taskErrorOf, type TaskStatus, type VideoTask } from '@gateway/core';

export const VIDEO_STATUS: Readonly<Record<TaskStatus, 'queued' | 'in_progress' | 'completed' | 'failed'>> = {
  queued: 'queued',
  running: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'failed',
  expired: 'failed',
};

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** Delivered size once known, else the requested one (adaptive resolves from the first frame). */
export function videoSize(task: VideoTask): string {
  if (task.delivery) return `${task.delivery.width}x${task.delivery.height}`;
  const { width, height } = videoDimensions(task.request.resolution, resolveRatio(task.request.aspectRatio, task.request.firstFrame));
  return `${width}x${height}`;
}

function progressOf(task: VideoTask): number {
  if (task.status === 'succeeded') return 100;
  if (task.status === 'queued') return 0;
  return Math.max(0, Math.min(100, Math.round(task.progress)));
}

/** A task (created in any format) as the `video` object. */
export function encodeVideo(task: VideoTask) {
  const error = taskErrorOf(task);
  return {
    id: task.id,
    object: 'video' as const,
    model: task.model,
    status: VIDEO_STATUS[task.status],
    progress: progressOf(task),
    created_at: unix(task.createdAt),
    completed_at: task.completedAt ? unix(task.completedAt) : null,
    // Content lives as long as the record: retention counts from creation.
    expires_at: task.status === 'succeeded' ? unix(task.createdAt) + VIDEO_DEFAULTS.retentionSeconds : null,
    error: error && { code: error.code, message: error.message },
    prompt: task.request.prompt ?? null,
    remixed_from_video_id: task.request.remixOf?.taskId ?? null,
    seconds: String(task.delivery?.durationSeconds ?? task.request.durationSeconds),
    size: videoSize(task),
  };
}

export function encodeVideoList(items: VideoTask[], hasMore: boolean) {
  return {
    object: 'list' as const,
    data: items.map(encodeVideo),
    has_more: hasMore,
    first_id: items[0]?.id ?? null,
    last_id: items[items.length - 1]?.id ?? null,
  };
}
