import { queryParam, type ParamDoc } from '@gateway/http-kit';

const text = (name: string, description: string) => queryParam(name, description, { type: 'string', maxLength: 256 });
const time = (name: string, description: string) => queryParam(name, `${description}: Unix seconds or an ISO 8601 date.`);

const videoShape = {
  type: 'object',
  properties: { seconds: { type: 'number' }, resolution: { type: 'string' } },
} as const;

const usageRow = {
  type: 'object',
  required: ['id', 'object', 'created_at', 'request_id', 'model', 'format', 'status'],
  properties: {
    id: { type: 'string' },
    object: { const: 'usage.record' },
    created_at: { type: 'integer' },
    request_id: { type: 'string' },
    model: { type: ['string', 'null'] },
    format: { type: 'string' },
    status: { type: 'string' },
    http_status: { type: 'integer' },
    task_id: { type: ['string', 'null'] },
    batch_id: { type: ['string', 'null'] },
    idempotency_key: { type: ['string', 'null'] },
    credits: { type: ['number', 'null'] },
    video: {
      type: ['object', 'null'],
      description:
        'Video tasks: `requested` {seconds, resolution}; on the settlement row (status `succeeded`) also `delivered`, what the charge settled on.',
      properties: { requested: videoShape, delivered: { ...videoShape, type: ['object', 'null'] } },
    },
  },
};

/** The filters and paging of `GET /v1/usage`. */
export const usageParams: ParamDoc[] = [
  queryParam('limit', 'Rows per page, 1–1000 (default 100).', { type: 'integer', minimum: 1, maximum: 1000 }),
  queryParam('after', 'The `last_id` of the previous page.', { type: 'string', pattern: '^\\d{1,18}$' }),
  time('start_time', 'Rows at or after this time'),
  time('end_time', 'Rows before this time'),
  text('model', 'Only this model.'),
  text('format', 'Only this wire format (e.g. `openai-chat`).'),
  text('key_id', 'Only rows of this key.'),
  text('provider', 'Only rows answered by this provider.'),
  queryParam(
    'status',
    'Only this outcome: `ok`, `error`, `cancelled` (the client left), `shutdown` (our shutdown cut the stream), `interrupted` (settled by crash recovery), `refunded`, or a task status.',
    {
      type: 'string',
      enum: ['ok', 'error', 'cancelled', 'shutdown', 'interrupted', 'refunded', 'queued', 'running', 'succeeded', 'failed', 'expired'],
    },
  ),
  text('task_id', 'Only rows of this task.'),
  text('batch_id', "Only rows of this batch's lines."),
  text('request_id', 'Only the row of this request id.'),
  text('idempotency_key', 'Only rows created with this Idempotency-Key.'),
  queryParam('group_by', 'Also totals per group (`groups`); grouped by key, each group names the key and its account.', {
    type: 'string',
    enum: ['day', 'model', 'key', 'account'],
  }),
  queryParam(
    'export',
    '`csv`: the page of rows (or the groups, with `group_by`) as CSV with a header row, the same parameter as /admin/usage.',
    { type: 'string', enum: ['json', 'csv'] },
  ),
];

export const usageResponse = {
  description: 'One page of rows and the daily totals.',
  content: {
    'application/json': {
      type: 'object',
      required: ['object', 'data', 'has_more', 'daily_totals'],
      properties: {
        object: { const: 'list' },
        data: { type: 'array', items: usageRow },
        has_more: { type: 'boolean' },
        first_id: { type: ['string', 'null'] },
        last_id: { type: ['string', 'null'] },
        group_by: { type: 'string' },
        groups: { type: 'array', items: { type: 'object' } },
        daily_totals: {
          type: 'array',
          items: {
            type: 'object',
            properties: { date: { type: 'string' }, model: { type: ['string', 'null'] }, requests: { type: 'integer' } },
          },
        },
      },
    },
    'text/csv': { type: 'string' },
  },
};
