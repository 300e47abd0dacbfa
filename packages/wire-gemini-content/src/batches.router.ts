import type { Request, RequestHandler } from 'express';
import { batchEnded, invalid, type Batches } from '@gateway/core';
import { atGeminiVersions, jsonBody, jsonRequestBody, pathParam, queryParams, routeOf } from '@gateway/http-kit';
import { encodeBatchInfo, encodeGeminiBatch, inlinedResponses } from './batch.codec';
import { modelParam } from './generate-content.openapi';

export interface GeminiBatchesDeps {
  batches: Batches;
}

/** Where each inlined request is sent: the generateContent route, the batch's model in the path. */
const GENERATE = '/v1beta/models/{model}:generateContent';
const REQUESTS = 'batch.inputConfig.requests.requests';
/** requests in one batch at most (as an OpenAI batch's lines) */
export const GEMINI_BATCH_MAX_REQUESTS = 50_000;

const createSchema = {
  type: 'object',
  required: ['batch'],
  properties: {
    batch: {
      type: 'object',
      required: ['inputConfig'],
      properties: {
        displayName: { type: 'string', maxLength: 512 },
        model: { type: 'string' },
        inputConfig: {
          type: 'object',
          properties: {
            fileName: { type: 'string', description: 'Not taken: send the requests inlined.' },
            requests: {
              type: 'object',
              required: ['requests'],
              properties: {
                requests: {
                  type: 'array',
                  minItems: 1,
                  maxItems: GEMINI_BATCH_MAX_REQUESTS,
                  items: {
                    type: 'object',
                    required: ['request'],
                    properties: {
                      request: { type: 'object', description: 'A GenerateContentRequest, checked as `:generateContent` checks it.' },
                      metadata: { type: 'object', description: 'Echoed beside the request’s response.' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

interface CreateBody {
  batch: {
    displayName?: string;
    model?: string;
    inputConfig: {
      fileName?: string;
      requests?: { requests: Array<{ request: Record<string, unknown>; metadata?: Record<string, unknown> }> };
    };
  };
}

const listParams = [
  {
    name: 'pageSize',
    in: 'query',
    description: 'Batches per page, 1 to 1000 (default 50).',
    schema: { type: 'string', pattern: '^\\d{1,4}$' },
  },
  { name: 'pageToken', in: 'query', description: 'The `nextPageToken` of the previous page.', schema: { type: 'string', maxLength: 128 } },
] as const;

const route = routeOf<GeminiBatchesDeps>();
const format = 'gemini-content';
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-goog-api-key'] } as const;
const nameParam = pathParam('name', 'The batch id, the part of its name after `batches/`.');
const operation = {
  type: 'object',
  required: ['name', 'metadata', 'done'],
  properties: { name: { type: 'string' }, metadata: { type: 'object' }, done: { type: 'boolean' } },
} as const;
const answer = (description: string) => ({ description, content: { 'application/json': operation } });
const empty = { description: 'Empty.', content: { 'application/json': { type: 'object' } } };
const withoutPrefix = (model: string) => model.replace(/^models\//, '');

/**
 * `GET /v1/batches/{id}` is OpenAI's too (wire-openai-batches): a caller authenticating as @google/genai does
 * (`x-goog-api-key` or `?key=`) is Gemini's, any other goes on to OpenAI's route. `/v1beta` is Gemini's alone.
 */
const geminiCallers: RequestHandler = (req, _res, next) =>
  req.path.startsWith('/v1beta/') || req.header('x-goog-api-key') !== undefined || typeof req.query.key === 'string'
    ? next()
    : next('route');

async function operationOf(deps: GeminiBatchesDeps, principal: Parameters<Batches['get']>[0], id: string) {
  const batch = await deps.batches.get(principal, id, 'gemini');
  if (!batchEnded(batch.status)) return encodeGeminiBatch(batch);
  const { outcomes } = await deps.batches.results(principal, id, 'gemini');
  return encodeGeminiBatch(batch, await inlinedResponses(batch, outcomes));
}

const idOf = (req: Request) => String(req.params.name);

/**
 * Gemini's batch mode as @google/genai's `batches.*` calls it, with inlined requests, on the gateway's durable engine
 * (docs/formats/batches.md): each request runs as a `:generateContent` call of this key.
 */
export const geminiBatchesRoutes = [
  // `/v1beta` only: `GET /v1/batches` is OpenAI's list, one method and path being one route (and one OpenAPI operation)
  route({
    method: 'get',
    path: '/v1beta/batches',
    summary: 'List batches',
    description: 'Newest first; `pageToken` pages on.',
    format,
    auth,
    params: listParams,
    query: queryParams<{ pageSize?: string; pageToken?: string }>(listParams),
    response: {
      description: 'A page of batches.',
      content: {
        'application/json': {
          type: 'object',
          properties: { operations: { type: 'array', items: operation }, nextPageToken: { type: 'string' } },
        },
      },
    },
    errors: 'google',
    async handle({ deps, principal, query }, _req, res) {
      const size = Math.min(1000, Math.max(1, Number(query.pageSize ?? 50)));
      const page = await deps.batches.list(principal, { after: query.pageToken || undefined, limit: size + 1 }, 'gemini', 1000);
      const operations = page.slice(0, size).map((b) => encodeGeminiBatch(b));
      res.json({ operations, ...(page.length > size ? { nextPageToken: page[size - 1]!.id } : {}) });
    },
  }),
  ...atGeminiVersions([
    route({
      method: 'post',
      path: '/v1beta/models/{model}:batchGenerateContent',
      summary: 'Create a batch of generateContent requests',
      description:
        "Inlined requests only. Each is checked as `:generateContent` checks it (model in the key's group, body schema) before any work; a refused one refuses the call (400, naming `batch.inputConfig.requests.requests[N]`). Then each runs as a live request of this key.",
      format,
      auth,
      params: [modelParam],
      body: jsonRequestBody<CreateBody>(createSchema, { required: true }),
      response: answer('The batch, as a long-running operation.'),
      errors: 'google',
      parse: [jsonBody()],
      async handle({ deps, principal, body }, req, res) {
        const model = withoutPrefix(String(req.params.model));
        const inlined = body.batch.inputConfig.requests?.requests;
        if (!inlined)
          throw invalid(
            'unsupported_batch_input',
            'Send the requests inlined (batch.inputConfig.requests); input files are not taken.',
            'batch.inputConfig',
          );
        const requests = inlined.map(({ request }, i) => {
          const { model: named, ...rest } = request;
          if (named !== undefined && withoutPrefix(String(named)) !== model)
            throw invalid(
              'mismatched_model',
              `${REQUESTS}[${i}].request.model (request ${i + 1}): each request uses the batch's model, models/${model}.`,
              `${REQUESTS}[${i}].request.model`,
            );
          // the line's custom_id is the request's 1-based index: batch.codec.ts echoes its metadata from it
          return { custom_id: String(i + 1), params: { ...rest, model } };
        });
        const batch = await deps.batches.createInline(principal, {
          endpoint: GENERATE,
          requests,
          maxRequests: GEMINI_BATCH_MAX_REQUESTS,
          format: 'gemini',
          metadata: encodeBatchInfo({
            displayName: body.batch.displayName ?? '',
            model: `models/${model}`,
            requestMetadata: inlined.map((r) => r.metadata ?? null),
          }),
          placeOf: (index) => (index === null ? REQUESTS : `${REQUESTS}[${index}] (request ${index + 1})`),
        });
        res.json(encodeGeminiBatch(batch));
      },
    }),
    route({
      method: 'get',
      path: '/v1beta/batches/{name}',
      summary: 'Read a batch',
      description:
        "Once ended, `metadata.output.inlinedResponses` holds each request's response or error, in request order. Another account's batch is a missing batch: 404. Under `/v1`, a caller sending neither `x-goog-api-key` nor `?key=` reaches OpenAI's batch route instead (OpenAI's errors).",
      format,
      auth,
      first: [geminiCallers],
      params: [nameParam],
      response: answer('The batch, as a long-running operation.'),
      errors: ['google', 'openai'],
      errorShapeFor: () => 'google',
      async handle({ deps, principal }, req, res) {
        res.json(await operationOf(deps, principal, idOf(req)));
      },
    }),
    route({
      method: 'post',
      path: '/v1beta/batches/{name}:cancel',
      summary: 'Cancel a batch',
      description: 'No new request starts; the batch ends `BATCH_STATE_CANCELLED` once the requests in flight end.',
      format,
      auth,
      params: [nameParam],
      response: empty,
      errors: 'google',
      async handle({ deps, principal }, req, res) {
        await deps.batches.cancel(principal, idOf(req), 'gemini');
        res.json({});
      },
    }),
    route({
      method: 'delete',
      path: '/v1beta/batches/{name}',
      summary: 'Delete a batch',
      description: 'An ended batch only; its usage rows stay.',
      format,
      auth,
      params: [nameParam],
      response: empty,
      errors: 'google',
      async handle({ deps, principal }, req, res) {
        await deps.batches.delete(principal, idOf(req), 'gemini');
        res.json({});
      },
    }),
  ]),
];
