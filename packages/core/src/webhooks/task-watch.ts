/**
 * Live status: the task at once, then again at every change of status or progress, until it is terminal. Woken by
 * the change feed; a slow poll as well, so a hint lost in a reconnect only delays an update.
 */
import type { Principal } from '../auth';
import type { TaskChangeFeed } from '../ports/task-change-feed.port';
import type { VideoTaskService } from '../use-cases/video-tasks.contract';
import { isTerminal, type VideoTask } from '../video-task';

export interface TaskWatchDeps {
  videos: Pick<VideoTaskService, 'get'>;
  feed: TaskChangeFeed;
  /** the safety-net re-read while no hint arrives */
  pollMs: number;
}

export interface TaskWatcher {
  /** Throws not_found before the first snapshot for an unknown (or another account's) id. */
  watch(principal: Principal, id: string, signal: AbortSignal): AsyncGenerator<VideoTask>;
}

export class TaskWatch implements TaskWatcher {
  constructor(private readonly deps: TaskWatchDeps) {}

  async *watch(principal: Principal, id: string, signal: AbortSignal): AsyncGenerator<VideoTask> {
    let wake: (() => void) | undefined;
    let hinted = false;
    const unsubscribe = this.deps.feed.subscribe(id, () => {
      hinted = true;
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      let task = await this.deps.videos.get(principal, id);
      yield task;
      while (!isTerminal(task.status) && !signal.aborted) {
        if (!hinted) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.deps.pollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
        hinted = false;
        if (signal.aborted) return;
        let next: VideoTask;
        try {
          next = await this.deps.videos.get(principal, id);
        } catch {
          return; // deleted meanwhile: nothing more to say
        }
        if (next.status !== task.status || next.progress !== task.progress) yield next;
        task = next;
      }
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', onAbort);
    }
  }
}
