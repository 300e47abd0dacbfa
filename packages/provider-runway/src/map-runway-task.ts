import { generationFailed, missingVideo, type VideoStatus } from '@gateway/provider-kit';
import type { RunwayTask } from './runway-api';

/** A task → the port's status. THROTTLED is Runway's queue (the account's concurrency is full). */
export function mapRunwayTask(t: RunwayTask, open: (url: string) => Promise<NodeJS.ReadableStream>): VideoStatus {
  switch (t.status) {
    case 'PENDING':
    case 'THROTTLED':
      return { state: 'pending', running: false };
    case 'SUCCEEDED': {
      const url = t.output?.find(Boolean);
      if (!url) return missingVideo('an output URL');
      // The task names its output URLs only (no size, length or frame rate): the artifact states none and the worker
      // measures the stored file, so a shorter or smaller render is never billed as requested.
      return { state: 'succeeded', artifact: { open: () => open(url) } };
    }
    case 'FAILED':
      return generationFailed(t.failureCode, t.failure);
    case 'CANCELLED':
      return { state: 'failed', code: 'cancelled', message: 'The upstream task was cancelled.' };
    default: {
      // RUNNING (progress 0..1), or a word this adapter does not know yet: still working
      const progress = typeof t.progress === 'number' ? Math.round(Math.min(1, Math.max(0, t.progress)) * 100) : undefined;
      return { state: 'pending', running: true, progress };
    }
  }
}
