import { generationFailed, missingVideo, type VideoArtifact, type VideoStatus } from '@gateway/provider-kit';
import type { DashScopeTask } from './dashscope-api';

/**
 * The delivered shape as the task's usage states it: `video_duration` (seconds), and `video_ratio` when it is a pixel
 * size (`1280*720`; some models put a word there instead, which says nothing of the size). No frame rate is stated.
 * What it leaves out stays out: the worker measures the stored file rather than billing the request.
 */
function wanShape(t: DashScopeTask): Pick<VideoArtifact, 'width' | 'height' | 'durationSeconds'> {
  const seconds = t.usage?.video_duration ?? 0;
  const m = /^(\d{1,5})\*(\d{1,5})$/.exec(t.usage?.video_ratio ?? '');
  const w = m ? Number(m[1]) : 0;
  const h = m ? Number(m[2]) : 0;
  return { ...(w > 0 && h > 0 ? { width: w, height: h } : {}), ...(seconds > 0 ? { durationSeconds: seconds } : {}) };
}

/** A task read → the port's status (UNKNOWN is handled by the caller: the task is gone). */
export function mapDashScopeTask(t: DashScopeTask, open: (url: string) => Promise<NodeJS.ReadableStream>): VideoStatus {
  const o = t.output ?? {};
  switch (o.task_status) {
    case 'PENDING':
      return { state: 'pending', running: false };
    case 'SUCCEEDED': {
      const url = o.video_url;
      if (!url) return missingVideo('a video URL');
      return { state: 'succeeded', artifact: { ...wanShape(t), open: () => open(url) } };
    }
    case 'FAILED':
      return generationFailed(o.code, o.message);
    case 'CANCELED':
      return { state: 'failed', code: 'cancelled', message: 'The upstream task was cancelled.' };
    default:
      // RUNNING, or a word this adapter does not know yet: still working (the gateway's expiry bounds it)
      return { state: 'pending', running: true };
  }
}
