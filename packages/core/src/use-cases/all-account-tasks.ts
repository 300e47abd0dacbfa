/**
 * The platform admin's reads over every account's video tasks: list, read one, stream its video or poster. Reads
 * only: cancelling and deleting stay with the account (VideoTasks).
 */
import { GatewayError, invalid } from '../errors';
import type { ContentStore } from '../ports/content-store.port';
import type { TaskQueue } from '../ports/task-queue.port';
import type { TaskRepository } from '../ports/task-repository.port';
import type { TaskStatus, VideoTask } from '../video-task';
import type { VideoContent } from './video-tasks.contract';
import { taskContent } from './video-tasks';

export interface AllAccountTasksQuery {
  limit: number;
  /** cursor: the id of the last task of the previous page */
  after?: string;
  account?: string;
  status?: TaskStatus;
  model?: string;
}

export interface AllAccountTasksDeps {
  tasks: Pick<TaskRepository, 'listAcrossAccounts'> & Pick<TaskQueue, 'findById'>;
  content: ContentStore;
}

export const ALL_ACCOUNT_TASKS_MAX_LIMIT = 100;

const notFound = (id: string) =>
  new GatewayError('not_found', `No video task with id ${JSON.stringify(id.slice(0, 100))} exists.`, { code: 'task_not_found' });

export class AllAccountTasks {
  constructor(private readonly deps: AllAccountTasksDeps) {}

  async get(id: string): Promise<VideoTask> {
    const task = await this.deps.tasks.findById(id);
    if (!task) throw notFound(id);
    return task;
  }

  /** Newest first; `after` must name a task (of any account) that still exists. */
  async list(q: AllAccountTasksQuery): Promise<{ items: VideoTask[]; hasMore: boolean }> {
    if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > ALL_ACCOUNT_TASKS_MAX_LIMIT)
      throw invalid('invalid_limit', `limit must be a whole number from 1 to ${ALL_ACCOUNT_TASKS_MAX_LIMIT}; got ${q.limit}.`, 'limit');
    let before: { createdAt: Date; id: string } | undefined;
    if (q.after !== undefined) {
      const cursor = await this.deps.tasks.findById(q.after);
      if (!cursor) throw invalid('invalid_cursor', `after ${JSON.stringify(q.after.slice(0, 100))} is not a task.`, 'after');
      before = { createdAt: cursor.createdAt, id: cursor.id };
    }
    return this.deps.tasks.listAcrossAccounts({ limit: q.limit, before, accountId: q.account, status: q.status, model: q.model });
  }

  /** The same content rule as an account's own download (taskContent). */
  async content(id: string, variant: 'video' | 'thumbnail'): Promise<VideoContent> {
    return taskContent(this.deps.content, await this.get(id), variant);
  }
}
