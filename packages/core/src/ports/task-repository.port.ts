import type { TaskTransition } from '../task-transitions';
import type { VideoRequest } from '../video-limits';
import type { TaskDeployment, TaskStatus, VideoTask } from '../video-task';
import type { UsageRow } from './usage-log.port';

export type NewVideoTask = Omit<
  VideoTask,
  'status' | 'progress' | 'error' | 'delivery' | 'upstream' | 'createdAt' | 'updatedAt' | 'completedAt' | 'deployment' | 'request'
> & {
  createdAt?: Date;
  deployment: TaskDeployment;
  /** with its input images' bytes, kept apart from the task (read back by TaskQueue.loadRequest) */
  request: VideoRequest;
};

export type TaskPatch = Partial<Pick<VideoTask, 'progress' | 'error' | 'delivery' | 'upstream' | 'completedAt'>>;

/** The rules checked atomically (per account) when a task is admitted. */
export interface AdmissionRules {
  /** queued + running tasks the account may have; at or past it the task is refused */
  maxActive: number;
  /** a task with the same idempotency key created at or after this instant is returned instead */
  idempotentSince: Date;
  /**
   * Credits taken with the insert, in the same atomic step (the task is then billed "charged"); refused
   * ("unaffordable", nothing written) when the account would pass its limit.
   */
  price?: number;
  /** the creation's usage row, written in the same atomic step as the task */
  usage?: UsageRow;
}

export type Admission =
  | { outcome: 'created' | 'replayed'; task: VideoTask }
  | { outcome: 'capped'; active: number }
  /** scope: whose quota would be passed, the account's or the key's budget */
  | { outcome: 'unaffordable'; used: number; limit: number; scope?: 'account' | 'key' };

export interface TaskListFilter {
  limit: number;
  order: 'asc' | 'desc';
  /** keyset cursor: only tasks strictly after this one in the chosen order */
  after?: { createdAt: Date; id: string };
  offset?: number;
  status?: TaskStatus;
  model?: string;
  ids?: string[];
  /** only the tasks this key created (a key narrowed to its own tasks) */
  keyId?: string;
}

/** A page of every account's tasks (the platform admin's read), newest first by (createdAt, id). */
export interface AllAccountsTaskFilter {
  limit: number;
  /** keyset cursor: only tasks older than this one */
  before?: { createdAt: Date; id: string };
  accountId?: string;
  status?: TaskStatus;
  model?: string;
}

export interface TaskRepository {
  /** Inserts a queued task. */
  create(task: NewVideoTask): Promise<VideoTask>;
  /** The task, or null when it does not exist or belongs to another account. */
  findForAccount(accountId: string, id: string): Promise<VideoTask | null>;
  /**
   * Writes a status change the core decided (transitionTask): its patch as a compare-and-set on `decided.from`, and
   * its events, in one atomic step. The store only persists. Null when the task is gone or no longer in `from`.
   */
  applyTransition(id: string, decided: TaskTransition): Promise<VideoTask | null>;
  /**
   * Idempotency replay, active-task cap, credit reservation, insert and usage row as one atomic step per
   * account: two concurrent creations with one key make one task, and concurrent creations (on any number
   * of instances) never overshoot the cap or the remaining credits.
   */
  admit(task: NewVideoTask, rules: AdmissionRules): Promise<Admission>;
  /** One account's tasks, ordered by (createdAt, id); total counts the filter without paging. */
  list(accountId: string, filter: TaskListFilter): Promise<{ items: VideoTask[]; hasMore: boolean; total: number }>;
  /** Every account's tasks, newest first; no total (it would count the whole table on every page). */
  listAcrossAccounts(filter: AllAccountsTaskFilter): Promise<{ items: VideoTask[]; hasMore: boolean }>;
  /** Deletes a task that is in a terminal state; null when none matched (unknown, other account, or not terminal). */
  deleteFinished(accountId: string, id: string): Promise<VideoTask | null>;
}
