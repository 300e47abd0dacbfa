import { Router, type RequestHandler } from 'express';
import { newId, toGatewayError, type TextGeneration } from '@gateway/core';
import {
  admitStream,
  compileValidator,
  countInputTokens,
  errorMiddleware,
  jsonBody,
  principalOf,
  renderAnthropicError,
  requireKey,
  SseWriter,
  type Authenticator,
} from '@gateway/http-kit';
import { checkAnthropicVersion } from './anthropic-version';
import { decodeMessagesRequest } from './messages.request.codec';
import { countTokensRequestSchema, messagesRequestSchema } from './messages.request.schema';
import { encodeMessage } from './messages.response.codec';
import { MessagesEventEncoder } from './messages.stream.codec';
import { inputTokensForMessageStart } from './stream-input-tokens';

const validate = compileValidator<Record<string, any>>(messagesRequestSchema);
const validateCount = compileValidator<Record<string, any>>(countTokensRequestSchema);

export interface MessagesRouterDeps {
  authenticate: Authenticator;
  text: TextGeneration;
}

/** Anthropic SDKs read the request id from `request-id`; the gateway's id is echoed there too. */
const echoRequestId: RequestHandler = (_req, res, next) => {
  res.setHeader('request-id', res.locals.requestId as string);
  next();
};

const requireVersion: RequestHandler = (req, _res, next) => {
  checkAnthropicVersion(req.header('anthropic-version'));
  next();
};

/** `POST /v1/messages` and `/v1/messages/count_tokens` (`?beta=true` and `anthropic-beta` are accepted and change nothing). */
export function anthropicMessagesRouter(deps: MessagesRouterDeps): Router {
  const router = Router();
  // The 1.x SDK sends `authorization: Bearer`, 0.x and curl users `x-api-key`: both are accepted.
  router.post('/v1/messages', echoRequestId, requireKey(deps.authenticate, ['x-api-key']), requireVersion, jsonBody(), async (req, res) => {
    const principal = principalOf(res);
    const body = validate(req.body);
    const model = deps.text.resolve(principal, body.model);
    const { request, thinking } = decodeMessagesRequest(body, model);
    const id = newId('msg_', 12);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const meta = { format: 'anthropic-messages', requestId: res.locals.requestId as string, signal: abort.signal };

    if (!body.stream) {
      const result = await deps.text.generate(principal, request, meta);
      if (result.warnings.length) res.setHeader('x-gateway-warnings', result.warnings.join('; '));
      res.json(encodeMessage(id, model.id, result, thinking));
      return;
    }
    // The concurrent-streams limit is checked before the upstream is called: a refused stream costs it nothing.
    if (!(await admitStream(res))) return;
    const parts = deps.text.stream(principal, request, meta);
    // Pull the first part before committing to 200, so an upstream failure is still a plain HTTP error.
    const first = await parts.next();
    const sse = new SseWriter(res);
    sse.abort.signal.addEventListener('abort', () => abort.abort());
    const encoder = new MessagesEventEncoder(id, model.id, thinking);
    const send = async (events: Array<{ event: string; data: unknown }>) => {
      for (const e of events) await sse.send(e.data, e.event);
    };
    try {
      await send([encoder.start(inputTokensForMessageStart(request))]);
      if (!first.done) await send(encoder.encode(first.value));
      for await (const part of { [Symbol.asyncIterator]: () => parts }) {
        if (sse.closed) break;
        await send(encoder.encode(part));
      }
    } catch (e) {
      await sse.send(renderAnthropicError(toGatewayError(e)).body, 'error');
    } finally {
      if (sse.closed) await parts.return(undefined);
      sse.end();
    }
  });
  router.post(
    '/v1/messages/count_tokens',
    echoRequestId,
    requireKey(deps.authenticate, ['x-api-key']),
    requireVersion,
    jsonBody(),
    async (req, res) => {
      const principal = principalOf(res);
      const body = validateCount(req.body);
      const { request } = decodeMessagesRequest(body, deps.text.resolve(principal, body.model));
      res.json({ input_tokens: await countInputTokens(res, deps.text, principal, request, 'anthropic-messages') });
    },
  );
  router.use(errorMiddleware(renderAnthropicError));
  return router;
}
