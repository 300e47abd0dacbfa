import type { VideoStatus } from '@gateway/core';
import type { DashScopeTask } from './dashscope-api';

export interface DashScopeShape {
  width: number;
  height: number;
  durationSeconds: number;
}

const WAN_FPS = 24;

/** A task read → the port's status (UNKNOWN is handled by the caller: the task is gone). */
export function mapDashScopeTask(
  t: DashScopeTask,
  shape: DashScopeShape,
  open: (url: string) => Promise<NodeJS.ReadableStream>,
): VideoStatus {
  const o = t.output ?? {};
  switch (o.task_status) {
    case 'PENDING':
      return { state: 'pending', running: false };
    case 'SUCCEEDED': {
      const url = o.video_url;
      if (!url) return { state: 'failed', code: 'upstream_missing_video', message: 'The upstream reported success without a video URL.' };
      const seconds = t.usage?.video_duration;
      return {
        state: 'succeeded',
        artifact: {
          width: shape.width,
          height: shape.height,
          durationSeconds: seconds && seconds > 0 ? seconds : shape.durationSeconds,
          fps: WAN_FPS,
          open: () => open(url),
        },
      };
    }
    case 'FAILED':
      return { state: 'failed', code: o.code || 'generation_failed', message: o.message || 'The upstream failed to generate the video.' };
    case 'CANCELED':
      return { state: 'failed', code: 'cancelled', message: 'The upstream task was cancelled.' };
    default:
      // RUNNING, or a word this adapter does not know yet: still working (the gateway's expiry bounds it)
      return { state: 'pending', running: true };
  }
}
