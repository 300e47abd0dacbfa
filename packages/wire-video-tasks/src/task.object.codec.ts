import { taskErrorOf, type VideoTask } from '@gateway/core';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The content URL is served by the video-endpoint format's content route (same key, Range support). */
export function videoContentUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/v1/videos/${id}/content`;
}

/** Ark bills video as width × height × fps × seconds / 1024 tokens; reported once the video exists. */
function tokens(task: VideoTask): number {
  const d = task.delivery;
  return task.status === 'succeeded' && d ? Math.round((d.width * d.height * d.fps * d.durationSeconds) / 1024) : 0;
}

/** A task (from any format) as the task-read object: requested values while pending, delivered ones after success. */
export function encodeTask(task: VideoTask, publicBaseUrl: string) {
  const d = task.status === 'succeeded' ? task.delivery : null;
  const error = taskErrorOf(task);
  const used = tokens(task);
  return {
    id: task.id,
    model: task.model,
    status: task.status,
    error: error && { code: error.code, message: error.message },
    content: task.status === 'succeeded' ? { video_url: videoContentUrl(publicBaseUrl, task.id) } : {},
    usage: { completion_tokens: used, total_tokens: used },
    output_format: 'mp4',
    framespersecond: d?.fps ?? task.request.fps,
    resolution: d?.resolution ?? task.request.resolution,
    ratio: d?.ratio ?? task.request.aspectRatio,
    duration: d?.durationSeconds ?? task.request.durationSeconds,
    generate_audio: task.request.generateAudio,
    priority: task.priority,
    service_tier: task.serviceTier,
    execution_expires_after: task.executionExpiresAfter,
    created_at: unix(task.createdAt),
    updated_at: unix(task.updatedAt),
  };
}
