import { Router, type RequestHandler } from 'express';
import { newId, type TextGeneration } from '@gateway/core';
import {
  compileValidator,
  countInputTokens,
  errorMiddleware,
  jsonBody,
  principalOf,
  pumpStream,
  requireKey,
  sendWarnings,
  requestSignal,
  type Authenticator,
} from '@gateway/http-kit';
import { checkAnthropicVersion } from './anthropic-version';
import { anthropicErrorShape } from './messages.error';
import { decodeMessagesRequest } from './messages.request.codec';
import {
  countTokensRequestSchema,
  messagesRequestSchema,
  type CountTokensRequestBody,
  type MessagesRequestBody,
} from './messages.request.schema';
import { encodeMessage } from './messages.response.codec';
import { MessagesEventEncoder } from './messages.stream.codec';
import { inputTokensForMessageStart } from './stream-input-tokens';

const validate = compileValidator<MessagesRequestBody>(messagesRequestSchema);
const validateCount = compileValidator<CountTokensRequestBody>(countTokensRequestSchema);

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
    const meta = { format: 'anthropic-messages', requestId: res.locals.requestId as string, signal: requestSignal(res), model };

    if (!body.stream) {
      const result = await deps.text.generate(principal, request, meta);
      sendWarnings(res, result.warnings);
      res.json(encodeMessage(id, model.id, result, thinking));
      return;
    }
    const encoder = new MessagesEventEncoder(id, model.id, thinking);
    await pumpStream(res, {
      parts: () => deps.text.stream(principal, request, meta),
      start: () => [encoder.start(inputTokensForMessageStart(request))],
      encode: (part) => encoder.encode(part),
      renderError: (err) => [{ data: anthropicErrorShape.render(err).body, event: 'error' }],
    });
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
  router.use(errorMiddleware(anthropicErrorShape.render));
  return router;
}
