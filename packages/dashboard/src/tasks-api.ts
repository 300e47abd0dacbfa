import { getJson, query, sendJson } from './api';

/** A task as the task-read format shows it (GET /v1/contents/generations/tasks): native statuses and parameters. */
export interface TaskItem {
  id: string;
  model: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';
  error: { code: string; message: string } | null;
  framespersecond: number;
  resolution: string;
  ratio: string;
  duration: number;
  generate_audio: boolean;
  priority?: number;
  service_tier?: string;
  created_at: number;
  updated_at: number;
}

/** A task as the video object (GET /v1/videos/{id}): prompt, progress, size and seconds. */
export interface VideoObject {
  id: string;
  model: string;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  progress: number;
  created_at: number;
  completed_at: number | null;
  expires_at: number | null;
  error: { code: string; message: string } | null;
  prompt: string | null;
  seconds: string;
  size: string;
}

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired'] as const;
export const FINISHED = new Set(['succeeded', 'failed', 'cancelled', 'expired', 'completed']);

const TASKS = '/v1/contents/generations/tasks';

export async function listTasks(key: string, status: string): Promise<{ total: number; items: TaskItem[] }> {
  return getJson(key, `${TASKS}${query({ 'filter[status]': status, page_size: 50 })}`);
}

export const readTask = (key: string, id: string) => getJson<TaskItem>(key, `${TASKS}/${encodeURIComponent(id)}`);
export const readVideo = (key: string, id: string) => getJson<VideoObject>(key, `/v1/videos/${encodeURIComponent(id)}`);
export const createVideo = (key: string, body: { model: string; prompt: string; seconds?: string; size?: string }) =>
  sendJson<VideoObject>(key, 'POST', '/v1/videos', body);
/** A queued task is cancelled, a finished one deleted; a running one answers 409 (the gateway's rule, shown as is). */
export const cancelOrDelete = (key: string, id: string) => sendJson(key, 'DELETE', `/v1/videos/${encodeURIComponent(id)}`);

export const contentPath = (id: string, variant: 'video' | 'thumbnail' = 'video') =>
  `/v1/videos/${encodeURIComponent(id)}/content${variant === 'thumbnail' ? '?variant=thumbnail' : ''}`;

/** A task as the platform admin reads it (GET /admin/tasks): the task-read fields plus its account and key. */
export interface AdminTaskItem extends TaskItem {
  account: string;
  key_id: string;
}

export interface AdminTaskPage {
  data: AdminTaskItem[];
  has_more: boolean;
  last_id: string | null;
}

/** Every account's tasks, newest first: the admin key or a platform admin's sign-on session (`adminKey`). */
export const listAllTasks = (adminKey: string, f: { status?: string; account?: string; after?: string }) =>
  getJson<AdminTaskPage>(adminKey, `/admin/tasks${query({ status: f.status, account: f.account, after: f.after, limit: 50 })}`);
export const readAnyTask = (adminKey: string, id: string) => getJson<AdminTaskItem>(adminKey, `/admin/tasks/${encodeURIComponent(id)}`);
export const adminContentPath = (id: string, variant: 'video' | 'thumbnail' = 'video') =>
  `/admin/tasks/${encodeURIComponent(id)}/content${variant === 'thumbnail' ? '?variant=thumbnail' : ''}`;
