import { generationFailed, missingVideo, type VideoStatus } from '@gateway/provider-kit';
import type { KlingTask } from './kling-api';

export type OpenUrl = (url: string) => Promise<NodeJS.ReadableStream>;

/** A task's `data` → the port's status. Kling reports a queue (`submitted`) before `processing`. */
export function mapKlingTask(t: KlingTask, open: OpenUrl): VideoStatus {
  switch (t.task_status) {
    case 'submitted':
      return { state: 'pending', running: false };
    case 'succeed': {
      const video = t.task_result?.videos?.find((v) => v.url);
      if (!video?.url) return missingVideo('a video URL');
      // The video states its length ("5", or "5.1" for a render that ran over); no size or frame rate. What it
      // leaves out stays out: the worker measures the stored file rather than billing the request.
      const seconds = /^\d+(\.\d+)?$/.test(video.duration ?? '') ? Number(video.duration) : 0;
      const url = video.url;
      return { state: 'succeeded', artifact: { ...(seconds > 0 ? { durationSeconds: seconds } : {}), open: () => open(url) } };
    }
    case 'failed':
      // Kling gives a message, not a code; its risk-control refusal is recognisable by its words.
      return generationFailed(
        /risk control|sensitive|violat/i.test(t.task_status_msg ?? '') ? 'content_filtered' : undefined,
        t.task_status_msg,
      );
    default:
      // processing, or a word this adapter does not know yet: still working (the gateway's expiry bounds it)
      return { state: 'pending', running: true };
  }
}
