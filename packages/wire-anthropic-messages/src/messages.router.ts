import type { Request, RequestHandler } from 'express';
import {
  collectStream,
  estimateInputTokens,
  newId,
  type StoredConversations,
  type TextGeneration,
  type TextResult,
  type TextStreamPart,
  type Warning,
} from '@gateway/core';
import {
  cacheCallMeta,
  countInputTokens,
  jsonBody,
  jsonRequestBody,
  pumpStream,
  routeOf,
  sendJsonAnswer,
  sendWarnings,
  type BodyCheckContext,
  type RequestBody,
} from '@gateway/http-kit';
import { checkAnthropicVersion } from './anthropic-version';
import { anthropicErrorShape } from './messages.error';
import { message, messagesParams } from './messages.openapi';
import { decodeMessagesRequest } from './messages.request.codec';
import {
  countTokensRequestSchema,
  messagesRequestSchema,
  type CountTokensRequestBody,
  type MessagesRequestBody,
} from './messages.request.schema';
import { encodeMessage } from './messages.response.codec';
import { MessagesEventEncoder } from './messages.stream.codec';
import { keepThreadTurn, openThread, withoutThreadsBeta, type ThreadTurn } from './messages.thread';

/**
 * A `thread` turn is checked as the body it stands for: the stored conversation with this turn appended. The
 * handler gets both, to keep the turn afterwards.
 */
function withThread<B>(plain: RequestBody<B>): RequestBody<{ body: B; thread: ThreadTurn | null }> {
  return {
    ...plain,
    async check(raw, req, ctx: BodyCheckContext) {
      const thread = await openThread((ctx.deps as MessagesRouterDeps).conversations, ctx.principal!, raw);
      return { thread, body: await plain.check(thread ? thread.body : raw, req, ctx) };
    },
  };
}

export interface MessagesRouterDeps {
  text: TextGeneration;
  /** where server-held threads are kept; without it a `thread` request gets `thread_unsupported_request` */
  conversations?: StoredConversations;
}

/** Anthropic SDKs read the request id from `request-id`; the gateway's id is echoed there too. */
const echoRequestId: RequestHandler = (_req, res, next) => {
  res.setHeader('request-id', res.locals.requestId);
  next();
};

const requireVersion: RequestHandler = (req, _res, next) => {
  checkAnthropicVersion(req.header('anthropic-version'));
  next();
};

/** The client headers that belong to its Messages request: `anthropic-beta` reaches an Anthropic upstream (provider policy). */
function nativeHeaders(req: Request): Record<string, string> {
  const beta = withoutThreadsBeta(req.header('anthropic-beta'));
  return beta ? { 'anthropic-beta': beta } : {};
}

/**
 * A thread turn is kept before its `finish` part is encoded (and with it `message_stop`), so a client that continues
 * the moment the stream ends finds it. A stream that stops early keeps nothing.
 */
async function* keptOnFinish(
  parts: AsyncGenerator<TextStreamPart>,
  keep: (result: TextResult) => Promise<void>,
  model: string,
): AsyncGenerator<TextStreamPart> {
  const seen: TextStreamPart[] = [];
  for await (const part of parts) {
    seen.push(part);
    if (part.type === 'finish') await keep(await collectStream(model, replay(seen)));
    yield part;
  }
}

async function* replay(parts: TextStreamPart[]): AsyncGenerator<TextStreamPart> {
  yield* parts;
}

/**
 * `POST /v1/messages` and `/v1/messages/count_tokens`. `?beta=true` changes nothing; `anthropic-beta` is forwarded
 * to an Anthropic upstream with the client's body (same-dialect passthrough) and ignored by every other upstream.
 */
const route = routeOf<MessagesRouterDeps>();
// 1.x SDKs send a bearer token; 0.x SDKs and curl users send x-api-key.
const auth = { kind: 'api-key', role: 'member', alternativeHeaders: ['x-api-key'] } as const;

export const messagesRoutes = [
  route({
    method: 'post',
    path: '/v1/messages',
    batch: { format: 'anthropic', kind: 'text', headers: { 'anthropic-version': '2023-06-01' } },
    summary: 'Create a message',
    description: 'With `"stream": true` the answer is named server-sent events (`message_start` … `message_stop`).',
    format: 'anthropic-messages',
    auth,
    params: messagesParams,
    body: withThread(jsonRequestBody<MessagesRequestBody>(messagesRequestSchema)),
    response: {
      description: 'A `message`, or its events as server-sent events when streaming.',
      content: { 'application/json': message, 'text/event-stream': { type: 'string' } },
    },
    errors: 'anthropic',
    first: [echoRequestId],
    parse: [requireVersion, jsonBody()],
    async handle({ deps, principal, requestId, signal, body: { body, thread } }, req, res) {
      const model = deps.text.resolve(principal, body.model);
      const { request, thinking } = decodeMessagesRequest(body, model, nativeHeaders(req));
      const id = newId('msg_', 12);
      const meta = {
        format: 'anthropic-messages',
        requestId,
        signal,
        model,
        // hosted tools the chosen upstream does not run (core/hosted-tools.ts), known before the first event
        onWarnings: (w: readonly Warning[]) => sendWarnings(res, w),
        ...cacheCallMeta(req, res),
      };

      const keep = async (result: TextResult, message: ReturnType<typeof encodeMessage>) => {
        if (thread && deps.conversations)
          await keepThreadTurn(deps.conversations, principal, thread, { message, request, result, model: model.id });
      };

      if (!body.stream) {
        const result = await deps.text.generate(principal, request, meta);
        const message = encodeMessage(id, model.id, result, thinking);
        await keep(result, message);
        sendJsonAnswer(res, result, message);
        return;
      }
      // The estimate is known before the call; a second upstream request per stream to count would cost more.
      const encoder = new MessagesEventEncoder(id, model.id, thinking, estimateInputTokens(request));
      await pumpStream(res, {
        parts: () => {
          // a thread turn is kept from the canonical parts, which a forwarded stream does not carry
          const parts = deps.text.stream(principal, request, thread ? meta : { ...meta, forward: encoder.forwarding() });
          return thread ? keptOnFinish(parts, (result) => keep(result, encodeMessage(id, model.id, result, thinking)), model.id) : parts;
        },
        encode: (part) => encoder.messages(part),
        renderError: (err) => [{ data: anthropicErrorShape.render(err).body, event: 'error' }],
      });
    },
  }),
  route({
    method: 'post',
    path: '/v1/messages/count_tokens',
    summary: 'Count the input tokens of a message',
    description:
      "Counted by the model's upstream when it can count (Anthropic, Google, the simulator); otherwise estimated, and the `x-gateway-token-count: estimated` header says so.",
    format: 'anthropic-messages',
    auth,
    params: messagesParams,
    body: withThread(jsonRequestBody<CountTokensRequestBody>(countTokensRequestSchema)),
    response: {
      description: 'The count.',
      content: {
        'application/json': { type: 'object', required: ['input_tokens'], properties: { input_tokens: { type: 'integer', minimum: 0 } } },
      },
    },
    errors: 'anthropic',
    first: [echoRequestId],
    parse: [requireVersion, jsonBody()],
    // a thread turn counts with the history it continues
    async handle({ deps, principal, body: { body } }, req, res) {
      const { request } = decodeMessagesRequest(body, deps.text.resolve(principal, body.model), nativeHeaders(req));
      res.json({ input_tokens: await countInputTokens(res, deps.text, principal, request, 'anthropic-messages') });
    },
  }),
];
