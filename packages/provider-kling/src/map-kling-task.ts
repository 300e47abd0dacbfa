import type { VideoStatus } from '@gateway/provider-kit';
import type { KlingTask } from './kling-api';

export type OpenUrl = (url: string) => Promise<NodeJS.ReadableStream>;

/** A task's `data` → the port's status. Kling reports a queue (`submitted`) before `processing`. */
export function mapKlingTask(t: KlingTask, open: OpenUrl): VideoStatus {
  switch (t.task_status) {
    case 'submitted':
      return { state: 'pending', running: false };
    case 'succeed': {
      const video = t.task_result?.videos?.find((v) => v.url);
      if (!video?.url)
        return { state: 'failed', code: 'upstream_missing_video', message: 'The upstream reported success without a video URL.' };
      // The video states its length ("5", or "5.1" for a render that ran over); no size or frame rate. What it
      // leaves out stays out: the worker measures the stored file rather than billing the request.
      const seconds = /^\d+(\.\d+)?$/.test(video.duration ?? '') ? Number(video.duration) : 0;
      const url = video.url;
      return { state: 'succeeded', artifact: { ...(seconds > 0 ? { durationSeconds: seconds } : {}), open: () => open(url) } };
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
