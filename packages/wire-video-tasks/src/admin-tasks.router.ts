import type { Request, Response } from 'express';
import {
  ALL_ACCOUNT_TASKS_MAX_LIMIT,
  invalid,
  TASK_STATUSES,
  type AllAccountTasks,
  type AllAccountTasksQuery,
  type TaskStatus,
  type VideoContent,
  type VideoTask,
} from '@gateway/core';
import { adminRouteOf, cursorPage, pathParam, queryParam as query, type ParamDoc, type RouteDoc, type SchemaDoc } from '@gateway/http-kit';
import { encodeTask } from './task.object.codec';
import { task as videoTaskSchema } from './tasks.openapi';

/** What the admin task routes read: every account's video tasks, never changing one. */
export interface AdminTaskDeps {
  tasks: AllAccountTasks;
  /** PUBLIC_BASE_URL (or the request's origin), for a task's download link */
  publicBaseUrl: (req: Request) => string;
}

/** The video download the account's API answers with (its format owns it), which the admin download answers alike. */
export interface VideoDownload {
  params: ParamDoc[];
  response: RouteDoc['response'];
  send(req: Request, res: Response, load: (id: string, variant: 'video' | 'thumbnail') => Promise<VideoContent>): Promise<void>;
}

const adminRoute = adminRouteOf<AdminTaskDeps>();

const DEFAULT_LIMIT = 50;
const FILTERS = ['account', 'status', 'model', 'after', 'limit'] as const;

const id = pathParam('id', 'The task id.');

/** The task-read object plus its account; `content.video_url` is this API's own download. */
const adminTask: SchemaDoc = {
  ...videoTaskSchema,
  required: [...videoTaskSchema.required, 'account'],
  properties: { ...videoTaskSchema.properties, account: { type: 'string' }, key_id: { type: 'string' } },
};

function adminTaskView(task: VideoTask, base: string) {
  const view = encodeTask(task, base);
  const content = task.status === 'succeeded' ? { video_url: `${base.replace(/\/+$/, '')}/admin/tasks/${task.id}/content` } : {};
  return { ...view, content, account: task.accountId, key_id: task.keyId };
}

function one(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 256)
    throw invalid('invalid_filter', `"${name}" must be one string of at most 256 characters.`, name);
  return v;
}

/** The list's query: an unknown parameter or a bad value is a 400 naming it. */
function taskListQuery(req: Request): AllAccountTasksQuery {
  const unknown = Object.keys(req.query).find((k) => !(FILTERS as readonly string[]).includes(k));
  if (unknown) throw invalid('unknown_parameter', `Unknown parameter "${unknown}"; the filters are ${FILTERS.join(', ')}.`, unknown);
  const status = one(req, 'status');
  if (status !== undefined && !(TASK_STATUSES as readonly string[]).includes(status))
    throw invalid('invalid_status', `"status" must be one of ${TASK_STATUSES.join(', ')}.`, 'status');
  const limit = one(req, 'limit') ?? String(DEFAULT_LIMIT);
  if (!/^\d{1,4}$/.test(limit))
    throw invalid('invalid_limit', `"limit" must be a whole number from 1 to ${ALL_ACCOUNT_TASKS_MAX_LIMIT}.`, 'limit');
  return {
    limit: Number(limit),
    after: one(req, 'after'),
    account: one(req, 'account'),
    status: status as TaskStatus | undefined,
    model: one(req, 'model'),
  };
}

/** The platform admin's reads over every account's video tasks (AllAccountTasks): no route here changes a task. */
export const adminTaskRoutes = (download: VideoDownload) => [
  adminRoute({
    method: 'get',
    path: '/admin/tasks',
    summary: "Every account's video tasks",
    description: `Newest first, each as the task-read format shows it plus \`account\` and \`key_id\`. Paged by cursor: pass the previous page's \`last_id\` as \`after\` while \`has_more\`. An unknown parameter or value is a 400.`,
    params: [
      query('account', 'Only this account.'),
      query('status', 'Only this status.', { enum: [...TASK_STATUSES] }),
      query('model', 'Only this model.'),
      query('after', 'The `last_id` of the previous page.'),
      query('limit', 'At most this many tasks.', {
        type: 'integer',
        minimum: 1,
        maximum: ALL_ACCOUNT_TASKS_MAX_LIMIT,
        default: DEFAULT_LIMIT,
      }),
    ],
    response: {
      description: 'One page of tasks.',
      content: { 'application/json': cursorPage(adminTask) },
    },
    async handle({ deps }, req, res) {
      const page = await deps.tasks.list(taskListQuery(req));
      const data = page.items.map((t) => adminTaskView(t, deps.publicBaseUrl(req)));
      res.json({ object: 'list', data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    },
  }),
  adminRoute({
    method: 'get',
    path: '/admin/tasks/{id}',
    summary: 'Read any video task',
    params: [id],
    response: { description: 'The task.', content: { 'application/json': adminTask } },
    async handle({ deps }, req, res) {
      res.json(adminTaskView(await deps.tasks.get(String(req.params.id)), deps.publicBaseUrl(req)));
    },
  }),
  // GET also answers HEAD (express routes HEAD to GET handlers).
  adminRoute({
    method: 'get',
    path: '/admin/tasks/{id}/content',
    summary: "Download any task's video or thumbnail",
    description: "As `GET /v1/videos/{id}/content` answers the task's own account: one byte range (206) and HEAD.",
    params: [id, ...download.params],
    response: download.response,
    handle: ({ deps }, req, res) => download.send(req, res, (taskId, variant) => deps.tasks.content(taskId, variant)),
  }),
];
