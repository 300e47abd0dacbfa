import type { Request } from 'express';
import type { Batches } from '@gateway/core';
import { jsonBody, jsonRequestBody, pathParam, queryParams, routeOf } from '@gateway/http-kit';
import { encodeMessageBatch, encodeResult } from './message-batch.codec';

export interface MessageBatchesDeps {
  batches: Batches;
  /** the gateway's public base URL for this request (the batch's `results_url`) */
  publicBaseUrl: (req: Request) => string;
}

/** Anthropic's limit of requests in one batch. */
export const MESSAGE_BATCH_MAX_REQUESTS = 100_000;
const MESSAGES = '/v1/messages';

const createSchema = {
  type: 'object',
  required: ['requests'],
  properties: {
    requests: {
      type: 'array',
      minItems: 1,
      maxItems: MESSAGE_BATCH_MAX_REQUESTS,
      items: {
        type: 'object',
        required: ['custom_id', 'params'],
        properties: { custom_id: { type: 'string' }, params: { type: 'object' } },
      },
    },
  },
} as const;

interface CreateBody {
  requests: Array<{ custom_id: string; params: Record<string, unknown> }>;
}

const listParams = [
  {
    name: 'before_id',
    in: 'query',
    description: 'The page of batches just before (newer than) this one.',
    schema: { type: 'string', maxLength: 128 },
  },
  { name: 'after_id', in: 'query', description: 'Batches older than this one.', schema: { type: 'string', maxLength: 128 } },
  {
    name: 'limit',
    in: 'query',
    description: 'Batches per page, 1 to 1000 (default 20).',
    schema: { type: 'string', pattern: '^\\d{1,4}$' },
  },
] as const;

const route = routeOf<MessageBatchesDeps>();
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key'] } as const;
/** the dashboard's sign-on session may read the account's list and results (they call no model) */
const read = { ...auth, session: true } as const;
const format = 'anthropic-messages';
const idParam = pathParam('id', 'The message batch id (`msgbatch_…`).');
const batchObject = {
  type: 'object',
  required: ['id', 'type', 'processing_status'],
  properties: { type: { const: 'message_batch' } },
} as const;
const answer = (description: string) => ({ description, content: { 'application/json': batchObject } });
const encode = (deps: MessageBatchesDeps, req: Request, b: Parameters<typeof encodeMessageBatch>[0]) =>
  encodeMessageBatch(b, `${deps.publicBaseUrl(req)}/v1/messages/batches/${b.id}/results`);

/** Anthropic's Message Batches: the lines run on the gateway's durable engine (docs/formats/batches.md). */
export const messageBatchesRoutes = [
  route({
    method: 'post',
    path: '/v1/messages/batches',
    summary: 'Create a message batch',
    description:
      "Each request is checked as `POST /v1/messages` checks it (model in the key's group, body schema) before any work; a refused one refuses the call (400, naming `requests.N`). Then each runs as a live request of this key.",
    format,
    auth,
    body: jsonRequestBody<CreateBody>(createSchema, { required: true }),
    response: answer('The message batch.'),
    errors: 'anthropic',
    parse: [jsonBody()],
    async handle({ deps, principal, body }, req, res) {
      const batch = await deps.batches.createInline(principal, {
        endpoint: MESSAGES,
        requests: body.requests,
        maxRequests: MESSAGE_BATCH_MAX_REQUESTS,
      });
      res.json(encode(deps, req, batch));
    },
  }),
  route({
    method: 'get',
    path: '/v1/messages/batches',
    summary: 'List message batches',
    description: 'Newest first; `after_id` pages on, `before_id` back.',
    format,
    auth: read,
    params: listParams,
    query: queryParams<{ before_id?: string; after_id?: string; limit?: string }>(listParams),
    response: { description: 'A page of message batches.', content: { 'application/json': { type: 'object' } } },
    errors: 'anthropic',
    async handle({ deps, principal, query }, req, res) {
      const limit = Math.min(1000, Math.max(1, Number(query.limit ?? 20)));
      const page = await deps.batches.list(
        principal,
        { after: query.after_id, before: query.before_id, limit: limit + 1 },
        'anthropic',
        1000,
      );
      // the extra row says whether more lie in the direction asked: past the last row, or (before_id) above the first
      const rows = query.before_id ? page.slice(-limit) : page.slice(0, limit);
      const data = rows.map((b) => encode(deps, req, b));
      res.json({ data, has_more: page.length > limit, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    },
  }),
  route({
    method: 'get',
    path: '/v1/messages/batches/{id}',
    summary: 'Read a message batch',
    description: "Another account's batch is a missing batch: 404.",
    format,
    auth,
    params: [idParam],
    response: answer('The message batch.'),
    errors: 'anthropic',
    async handle({ deps, principal }, req, res) {
      res.json(encode(deps, req, await deps.batches.get(principal, String(req.params.id), 'anthropic')));
    },
  }),
  route({
    method: 'get',
    path: '/v1/messages/batches/{id}/results',
    summary: 'Read the results of a message batch',
    description: 'JSONL, one line a request: `succeeded` with the message, `errored`, `canceled` or `expired`. Once the batch has ended.',
    format,
    auth: read,
    params: [idParam],
    response: { description: 'The results, one JSON object a line.', content: { 'application/x-jsonl': { type: 'string' } } },
    errors: 'anthropic',
    async handle({ deps, principal }, req, res) {
      const { batch, outcomes } = await deps.batches.results(principal, String(req.params.id), 'anthropic');
      res.type('application/x-jsonl');
      for await (const { customId, outcome } of outcomes) res.write(`${JSON.stringify(encodeResult(customId, outcome, batch))}\n`);
      res.end();
    },
  }),
  route({
    method: 'post',
    path: '/v1/messages/batches/{id}/cancel',
    summary: 'Cancel a message batch',
    description: 'No new request starts; `canceling` until the requests in flight end, then `ended`.',
    format,
    auth,
    params: [idParam],
    response: answer('The message batch.'),
    errors: 'anthropic',
    async handle({ deps, principal }, req, res) {
      res.json(encode(deps, req, await deps.batches.cancel(principal, String(req.params.id), 'anthropic')));
    },
  }),
  route({
    method: 'delete',
    path: '/v1/messages/batches/{id}',
    summary: 'Delete a message batch',
    description: 'An ended batch only; its usage rows stay.',
    format,
    auth,
    params: [idParam],
    response: { description: 'The deletion.', content: { 'application/json': { type: 'object' } } },
    errors: 'anthropic',
    async handle({ deps, principal }, req, res) {
      await deps.batches.delete(principal, String(req.params.id), 'anthropic');
      res.json({ id: String(req.params.id), type: 'message_batch_deleted' });
    },
  }),
];
