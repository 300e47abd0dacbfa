import type { VideoStatus } from '@gateway/core';
import type { KlingTask } from './kling-api';

/** What the adapter knows of the result's shape (Kling reports the duration only). */
export interface KlingShape {
  width: number;
  height: number;
  durationSeconds: number;
}

export type OpenUrl = (url: string) => Promise<NodeJS.ReadableStream>;

const KLING_FPS = 24;

/** A task's `data` → the port's status. Kling reports a queue (`submitted`) before `processing`. */
export function mapKlingTask(t: KlingTask, shape: KlingShape, open: OpenUrl): VideoStatus {
  switch (t.task_status) {
    case 'submitted':
      return { state: 'pending', running: false };
    case 'succeed': {
      const video = t.task_result?.videos?.find((v) => v.url);
      if (!video?.url)
        return { state: 'failed', code: 'upstream_missing_video', message: 'The upstream reported success without a video URL.' };
      const seconds = Number(video.duration);
      const url = video.url;
      return {
        state: 'succeeded',
        artifact: {
          width: shape.width,
          height: shape.height,
          durationSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : shape.durationSeconds,
          fps: KLING_FPS,
          open: () => open(url),
        },
      };
    }
    case 'failed':
      return {
        state: 'failed',
        // Kling gives a message, not a code; its risk-control refusal is recognisable by its words.
        code: /risk control|sensitive|violat/i.test(t.task_status_msg ?? '') ? 'content_filtered' : 'generation_failed',
        message: t.task_status_msg || 'The upstream failed to generate the video.',
      };
    default:
      // processing, or a word this adapter does not know yet: still working (the gateway's expiry bounds it)
      return { state: 'pending', running: true };
  }
}
