import type { TaskError, TaskStatus, VideoTask } from './video-task';

/** What a finished-without-video task reports when it carries no error of its own; one table for every format. */
const DEFAULT_TASK_ERRORS: Partial<Record<TaskStatus, TaskError>> = {
  failed: { code: 'generation_failed', message: 'The video could not be generated.' },
  cancelled: { code: 'cancelled', message: 'The task was cancelled before it started.' },
  expired: { code: 'expired', message: 'The task did not finish within its execution window (execution_expires_after).' },
};

/** The error a task shows its caller: its own, else the status's default; null while it may still succeed or has. */
export function taskErrorOf(task: Pick<VideoTask, 'status' | 'error'>): TaskError | null {
  const fallback = DEFAULT_TASK_ERRORS[task.status];
  if (!fallback) return null;
  return task.error ?? fallback;
}
