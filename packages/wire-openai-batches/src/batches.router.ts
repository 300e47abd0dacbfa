import type { Batches } from '@gateway/core';
import { jsonBody, jsonRequestBody, pathParam, queryParams, routeOf } from '@gateway/http-kit';
import { encodeBatch, encodeBatchList } from './batch.object.codec';

export interface BatchesRouterDeps {
  batches: Batches;
}

const createSchema = {
  type: 'object',
  required: ['input_file_id', 'endpoint', 'completion_window'],
  properties: {
    input_file_id: { type: 'string', minLength: 1, maxLength: 128, description: 'A file uploaded with `purpose: "batch"`.' },
    endpoint: {
      type: 'string',
      description: 'The endpoint every line calls: one of the routes that take batch lines (docs/formats/batches.md).',
    },
    completion_window: { const: '24h' },
    metadata: {
      type: ['object', 'null'],
      maxProperties: 16,
      additionalProperties: { type: 'string', maxLength: 512 },
      propertyNames: { maxLength: 64 },
    },
    output_expires_after: { type: 'object', description: 'Accepted; output files expire after 30 days.' },
  },
} as const;

interface CreateBody {
  input_file_id: string;
  endpoint: string;
  completion_window: string;
  metadata?: Record<string, string> | null;
}

const listParams = [
  { name: 'after', in: 'query', description: 'The `last_id` of the previous page.', schema: { type: 'string', maxLength: 128 } },
  {
    name: 'limit',
    in: 'query',
    description: 'Batches per page, 1 to 100 (default 20).',
    schema: { type: 'string', pattern: '^\\d{1,3}$' },
  },
] as const;

const batchObject = { type: 'object', required: ['id', 'object', 'status'], properties: { object: { const: 'batch' } } } as const;
const route = routeOf<BatchesRouterDeps>();
const format = 'openai-batches';
const auth = { kind: 'api-key', role: 'member' } as const;
const idParam = pathParam('id', 'The batch id (`batch_…`).');
const answer = (description: string) => ({ description, content: { 'application/json': batchObject } });

export const batchesRoutes = [
  route({
    method: 'post',
    path: '/v1/batches',
    summary: 'Create a batch',
    description:
      'Validates every line of the input file before any work (a refused line fails the batch with its line number; nothing is charged or called), then runs each line as a live request of this key. See docs/formats/batches.md.',
    format,
    auth,
    body: jsonRequestBody<CreateBody>(createSchema, { required: true }),
    response: answer('The batch.'),
    errors: 'openai',
    parse: [jsonBody()],
    async handle({ deps, principal, body }, _req, res) {
      const batch = await deps.batches.create(principal, {
        inputFileId: body.input_file_id,
        endpoint: body.endpoint,
        completionWindow: body.completion_window,
        metadata: body.metadata ?? null,
      });
      res.json(encodeBatch(batch));
    },
  }),
  route({
    method: 'get',
    path: '/v1/batches',
    summary: 'List batches',
    description: "The account's batches, newest first; pass `last_id` as `after` while `has_more`.",
    format,
    // the dashboard's sign-on session may list them too: a read that calls no model
    auth: { ...auth, session: true },
    params: listParams,
    query: queryParams<{ after?: string; limit?: string }>(listParams),
    response: { description: 'A page of batch objects.', content: { 'application/json': { type: 'object' } } },
    errors: 'openai',
    async handle({ deps, principal, query }, _req, res) {
      const limit = Math.min(100, Math.max(1, Number(query.limit ?? 20)));
      const page = await deps.batches.list(principal, { after: query.after, limit: limit + 1 });
      res.json(encodeBatchList(page.slice(0, limit), page.length > limit));
    },
  }),
  route({
    method: 'get',
    path: '/v1/batches/{id}',
    summary: 'Read a batch',
    description: "Another account's batch is a missing batch: 404.",
    format,
    auth,
    params: [idParam],
    response: answer('The batch.'),
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      res.json(encodeBatch(await deps.batches.get(principal, String(req.params.id))));
    },
  }),
  route({
    method: 'post',
    path: '/v1/batches/{id}/cancel',
    summary: 'Cancel a batch',
    description:
      'No new line starts; the batch is `cancelling` until the lines in flight end, then `cancelled`. The output file keeps the lines already done.',
    format,
    auth,
    params: [idParam],
    response: answer('The batch.'),
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      res.json(encodeBatch(await deps.batches.cancel(principal, String(req.params.id))));
    },
  }),
];
