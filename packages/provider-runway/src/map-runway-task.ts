import type { VideoStatus } from '@gateway/core';
import type { RunwayTask } from './runway-api';

export interface RunwayShape {
  width: number;
  height: number;
  durationSeconds: number;
}

const RUNWAY_FPS = 24;

/** A task → the port's status. THROTTLED is Runway's queue (the account's concurrency is full). */
export function mapRunwayTask(t: RunwayTask, shape: RunwayShape, open: (url: string) => Promise<NodeJS.ReadableStream>): VideoStatus {
  switch (t.status) {
    case 'PENDING':
    case 'THROTTLED':
      return { state: 'pending', running: false };
    case 'SUCCEEDED': {
      const url = t.output?.find(Boolean);
      if (!url) return { state: 'failed', code: 'upstream_missing_video', message: 'The upstream reported success without an output URL.' };
      return { state: 'succeeded', artifact: { ...shape, fps: RUNWAY_FPS, open: () => open(url) } };
    }
    case 'FAILED':
      return {
        state: 'failed',
        code: t.failureCode || 'generation_failed',
        message: t.failure || 'The upstream failed to generate the video.',
      };
    case 'CANCELLED':
      return { state: 'failed', code: 'cancelled', message: 'The upstream task was cancelled.' };
    default: {
      // RUNNING (progress 0..1), or a word this adapter does not know yet: still working
      const progress = typeof t.progress === 'number' ? Math.round(Math.min(1, Math.max(0, t.progress)) * 100) : undefined;
      return { state: 'pending', running: true, progress };
    }
  }
}
