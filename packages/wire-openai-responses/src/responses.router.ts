import {
  invalid,
  newId,
  type Principal,
  type Warning,
  type ResponsesConversation,
  type TextGeneration,
  type UsageLog,
} from '@gateway/core';
import {
  cacheCallMeta,
  countInputTokens,
  deletionReceipt,
  jsonBody,
  jsonRequestBody,
  openAiErrorShape,
  pumpStream,
  routeOf,
  sendWarnings,
} from '@gateway/http-kit';
import { CompactionSealer } from './compaction.seal';
import { compact, compactionOpener } from './responses.compact';
import { compaction, idParam, inputItems, inputItemsParams, response } from './responses.openapi';
import { resolveItemReferences } from './item-references';
import { flattenInputItems, flattenTools, liftAdditionalTools, restoreDocument, StreamToolRestorer } from './responses.tools';
import { decodeInputItemsQuery, encodeInputItems, pageInputItems } from './responses.input-items';
import { applyOptionItems } from './responses.option-items';
import { decodeResponsesRequest } from './responses.request.codec';
import {
  compactRequestSchema,
  inputTokensRequestSchema,
  responsesRequestSchema,
  type CompactRequestBody,
  type ResponsesRequestBody,
} from './responses.request.schema';
import { encodeResult, wantsSummary, type ResponseHeader } from './responses.response.codec';
import { ResponseEventEncoder, type ResponseEvent } from './responses.stream.codec';
import { NativeEventRelay, nativeDocument, nativeRequestOf } from './responses.native';
import { mcpDeclarations, mcpInput } from './responses.mcp';

/** A create body (or one counted), its option-only input items (configuration_update) applied first. */
const createBody = jsonRequestBody<ResponsesRequestBody>(responsesRequestSchema, { prepare: applyOptionItems });
const countBody = jsonRequestBody<ResponsesRequestBody>(inputTokensRequestSchema, { prepare: applyOptionItems });

export interface ResponsesRouterDeps {
  text: TextGeneration;
  /** the stored-conversation use case, built by the composition root over the same text use case and store */
  responsesConversation: ResponsesConversation;
  /** compaction rows: compaction calls no model, so TextGeneration does not log it */
  usage: UsageLog;
  /** the server secret that seals compaction items (one place: the wiring) */
  compactionSecret: string | Buffer;
  /** GATEWAY_SECRET_PREVIOUS: items sealed under it still open during a rotation */
  compactionPreviousSecret?: string;
}

const events = (list: ResponseEvent[]) => list.map((e) => ({ data: e, event: e.type }));

/** One sealer per set of services: its keys are derived once. */
const sealers = new WeakMap<ResponsesRouterDeps, CompactionSealer>();
function sealerOf(deps: ResponsesRouterDeps): CompactionSealer {
  let sealer = sealers.get(deps);
  if (!sealer) sealers.set(deps, (sealer = new CompactionSealer(deps.compactionSecret, deps.compactionPreviousSecret)));
  return sealer;
}

/** A create body → the canonical request, continuing the stored history of previous_response_id when given. */
async function decode(deps: ResponsesRouterDeps, principal: Principal, body: ResponsesRequestBody) {
  const model = deps.text.resolve(principal, body.model);
  const previousId: string | null = body.previous_response_id ?? null;
  const previous = await deps.responsesConversation.previous(principal, previousId);
  const resolved = await resolveItemReferences(deps.responsesConversation, principal, body.input);
  // MCP items are the gateway's own record: approvals are read from them, the model never sees them
  const mcp = mcpInput(resolved, previous?.document.output);
  const lifted = liftAdditionalTools({ ...body, input: mcp.input } as ResponsesRequestBody);
  const { tools, hosted, naming } = flattenTools(lifted.tools);
  const servers = mcpDeclarations(lifted.tools);
  const input = flattenInputItems(lifted.input);
  // the flattened body is what the schema would accept for the upstream's tool set
  const decoded = decodeResponsesRequest(
    { ...lifted, tools, input } as ResponsesRequestBody,
    model,
    previous?.conversation,
    compactionOpener(sealerOf(deps), principal.accountId),
  );
  const native = nativeRequestOf(body, resolved, previous?.conversation, decoded.unread);
  const request = {
    ...decoded.request,
    ...(hosted.length ? { hostedTools: hosted } : {}),
    ...(servers.length ? { hostedMcp: { servers, approvals: mcp.approvals } } : {}),
    native,
  };
  return { model, previousId, naming, conversation: decoded.conversation, request };
}

const route = routeOf<ResponsesRouterDeps>();
const auth = { kind: 'api-key', role: 'member' } as const;
const format = 'openai-responses';

export const responsesRoutes = [
  route({
    method: 'post',
    path: '/v1/responses',
    batch: { format: 'openai', kind: 'text' },
    summary: 'Create a response',
    description:
      'With `"stream": true` the answer is named server-sent events (`response.created` … `response.completed`). Stored unless `"store": false`.',
    format,
    auth,
    body: createBody,
    response: {
      description: 'A `response`, or its events when streaming.',
      content: { 'application/json': response, 'text/event-stream': { type: 'string' } },
    },
    errors: 'openai',
    parse: [jsonBody()],
    async handle({ deps, principal, requestId, signal, body }, req, res) {
      const conversations = deps.responsesConversation;
      const { model, previousId, request, conversation, naming } = await decode(deps, principal, body);
      const header: ResponseHeader = { id: `resp_${newId('', 12)}`, createdAt: Math.floor(Date.now() / 1000), model: model.id, body };
      const turn = {
        id: header.id,
        createdAt: new Date(header.createdAt * 1000),
        model: model.id,
        previousResponseId: previousId,
        conversation,
        request,
        store: body.store !== false,
      };
      const meta = {
        format: 'openai-responses',
        requestId,
        signal,
        model,
        // hosted tools the chosen upstream does not run (core/hosted-tools.ts), known before the first event
        onWarnings: (w: Warning[]) => sendWarnings(res, w),
        ...cacheCallMeta(req, res),
      };

      if (!body.stream) {
        const { result, document } = await conversations.generate(
          principal,
          turn,
          meta,
          (r) => nativeDocument(r, header) ?? restoreDocument(encodeResult(header, r), naming),
        );
        sendWarnings(res, result.warnings);
        res.json(document);
        return;
      }
      const encoder = new ResponseEventEncoder(header, wantsSummary(body));
      const restorer = new StreamToolRestorer(naming);
      // an upstream of this format streams its own events (forwarded when nothing in between reads the parts);
      // canonical parts are then only recorded
      const relay = new NativeEventRelay(header);
      const streamed = conversations.stream(principal, turn, { ...meta, forward: relay.forwarding() });
      await pumpStream(res, {
        parts: () => relay.watch(streamed.parts),
        start: () => (relay.active ? [] : events(restorer.restore(encoder.start()))),
        encode: (part) => (relay.active ? relay.relay(part) : events(restorer.restore(encoder.encode(part)))),
        finish: async () => {
          if (relay.active) {
            await streamed.complete(relay.document);
            return [];
          }
          // what is stored and announced is what the client declared: namespaces and custom tools restored
          const document = encoder.document && restoreDocument(encoder.document, naming);
          await streamed.complete(document);
          return events(encoder.complete(document!));
        },
        renderError: (err) => (relay.active ? relay.fail(err) : events(encoder.fail(err))),
      });
    },
  }),
  route({
    method: 'post',
    path: '/v1/responses/compact',
    summary: 'Compact a conversation',
    description: 'The history (previous response plus input) becomes one sealed compaction item to pass as input later.',
    format,
    auth,
    body: jsonRequestBody<CompactRequestBody>(compactRequestSchema),
    response: { description: 'A `response.compaction`.', content: { 'application/json': compaction } },
    errors: 'openai',
    parse: [jsonBody()],
    handle: (ctx, _req, res) =>
      compact({ ...ctx, deps: { ...ctx.deps, conversations: ctx.deps.responsesConversation, sealer: sealerOf(ctx.deps) } }, res),
  }),
  /** OpenAI's input-token count: a create body (nothing runs, nothing is stored), counted as count_tokens counts. */
  route({
    method: 'post',
    path: '/v1/responses/input_tokens',
    summary: 'Count the input tokens of a response request',
    description:
      "A create body (with `previous_response_id`, its history counts too); nothing runs and nothing is stored. Counted by the model's upstream when it can count (Anthropic, Google, the simulator); otherwise estimated, and the `x-gateway-token-count: estimated` header says so.",
    format,
    auth,
    body: countBody,
    response: {
      description: 'The count.',
      content: {
        'application/json': {
          type: 'object',
          required: ['object', 'input_tokens'],
          properties: { object: { const: 'response.input_tokens' }, input_tokens: { type: 'integer', minimum: 0 } },
        },
      },
    },
    errors: 'openai',
    parse: [jsonBody()],
    async handle({ deps, principal, body }, _req, res) {
      const { request } = await decode(deps, principal, body);
      res.json({
        object: 'response.input_tokens',
        input_tokens: await countInputTokens(res, deps.text, principal, request, 'openai-responses'),
      });
    },
  }),
  route({
    method: 'get',
    path: '/v1/responses/{id}',
    summary: 'Read a stored response',
    format,
    auth,
    params: [idParam],
    response: { description: 'The stored `response`.', content: { 'application/json': response } },
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      if (req.query.stream === 'true')
        throw invalid('unsupported_stream', 'Replaying a stored response as a stream is not supported; omit "stream".', 'stream');
      const found = await deps.responsesConversation.load(principal, String(req.params.id), 'response_id');
      res.json(found.document);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/responses/{id}',
    summary: 'Delete a stored response',
    format,
    auth,
    params: [idParam],
    response: deletionReceipt('response'),
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const id = String(req.params.id);
      await deps.responsesConversation.delete(principal, id);
      res.json({ id, object: 'response', deleted: true });
    },
  }),
  route({
    method: 'get',
    path: '/v1/responses/{id}/input_items',
    summary: 'List the input items of a stored response',
    description:
      'The conversation that produced the response (carried system text first, history of `previous_response_id` included), cursor-paged. Item ids are stable across reads.',
    format,
    auth,
    params: inputItemsParams,
    response: { description: 'One page of items.', content: { 'application/json': inputItems } },
    errors: 'openai',
    async handle({ deps, principal }, req, res) {
      const query = decodeInputItemsQuery(req.query as Record<string, unknown>);
      const found = await deps.responsesConversation.load(principal, String(req.params.id), 'response_id');
      res.json(pageInputItems(encodeInputItems(found), query));
    },
  }),
  // Nothing runs in the background here, so a stored response is always finished: OpenAI's answer for a
  // response that was not created with background=true. The body (the SDK sends none) is not read.
  route({
    method: 'post',
    path: '/v1/responses/{id}/cancel',
    summary: 'Cancel a background response (never applicable)',
    description:
      'No response runs in the background here: a stored response answers 400 `not_background`, an unknown one 404 `response_not_found`. The body is not read.',
    format,
    auth,
    params: [idParam],
    response: { status: 400, description: 'Always refused.', content: { 'application/json': openAiErrorShape.schema } },
    errors: 'openai',
    async handle({ deps, principal }, req) {
      await deps.responsesConversation.load(principal, String(req.params.id), 'response_id');
      throw invalid('not_background', 'Only responses created with background=true can be cancelled.');
    },
  }),
];
