import type { TaskChangeFeed } from '@gateway/core';
import type { Database } from './db';

/** The channel the video_tasks triggers notify with the task id: a new task (migration 034), a status or progress change (015). */
export const TASK_CHANGES_CHANNEL = 'gateway_task_changes';

export interface ClosableTaskChangeFeed extends TaskChangeFeed {
  /** starts listening; a failure (or a lost connection) leaves the watchers on their poll, and is retried after `retryMs` */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One LISTEN per process, fanned out to the live-status streams by task id. Notifications come from every instance
 * on the database (the trigger fires in whichever one changed the task); other schemas' ids only cause a re-read.
 * An outage is reported twice, whatever its length: `onDown` at its first failure (retries that fail too stay quiet,
 * so a log shows one warning per outage), `onUp` when a LISTEN works again.
 */
export function taskChangeFeed(
  db: Pick<Database, 'listen'>,
  opts: {
    retryMs?: number;
    onDown?: (e: Error) => void;
    onUp?: () => void;
    /** told of every notification, whatever the task (the video worker's wake-up) */
    onAny?: () => void;
  } = {},
): ClosableTaskChangeFeed {
  const watchers = new Map<string, Set<() => void>>();
  let stop: (() => Promise<void>) | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  let down = false;
  const again = (e: Error) => {
    if (!down) opts.onDown?.(e);
    down = true;
    stop = undefined;
    if (closed) return;
    retry = setTimeout(() => void listen(), opts.retryMs ?? 5000);
    retry.unref();
  };
  const listen = async () => {
    try {
      stop = await db.listen(
        TASK_CHANGES_CHANNEL,
        (id) => {
          opts.onAny?.();
          watchers.get(id)?.forEach((w) => w());
        },
        again,
      );
    } catch (e) {
      again(e as Error);
      return;
    }
    if (down) opts.onUp?.();
    down = false;
  };
  return {
    start: listen,
    subscribe(taskId, onChange) {
      const set = watchers.get(taskId) ?? new Set();
      set.add(onChange);
      watchers.set(taskId, set);
      return () => {
        set.delete(onChange);
        if (!set.size) watchers.delete(taskId);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await stop?.();
    },
  };
}
