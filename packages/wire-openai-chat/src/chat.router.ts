import { Router } from 'express';
import { invalid, newId, type TextGeneration } from '@gateway/core';
import {
  compileValidator,
  dataMessages,
  errorMiddleware,
  jsonBody,
  openAiErrorShape,
  principalOf,
  pumpStream,
  requireKey,
  sendWarnings,
  requestSignal,
  type Authenticator,
} from '@gateway/http-kit';
import { decodeChatRequest } from './chat.request.codec';
import { chatRequestSchema, type ChatRequestBody } from './chat.request.schema';
import { encodeChatCompletion } from './chat.response.codec';
import { ChatChunkEncoder } from './chat.stream.codec';

const validate = compileValidator<ChatRequestBody>(chatRequestSchema);

export interface ChatRouterDeps {
  authenticate: Authenticator;
  text: TextGeneration;
}

export function openAiChatRouter(deps: ChatRouterDeps): Router {
  const router = Router();
  router.post('/v1/chat/completions', requireKey(deps.authenticate), jsonBody(), async (req, res) => {
    const principal = principalOf(res);
    const body = validate(req.body);
    const model = deps.text.resolve(principal, body.model);
    const request = decodeChatRequest(body, model);
    const id = `chatcmpl-${newId('', 12)}`;
    const created = Math.floor(Date.now() / 1000);
    const meta = { format: 'openai-chat', requestId: res.locals.requestId as string, signal: requestSignal(res), model };

    if (!body.stream) {
      const n = request.n ?? 1;
      const results = await Promise.all(Array.from({ length: n }, () => deps.text.generate(principal, { ...request, n: 1 }, meta)));
      sendWarnings(res, results[0]!.warnings); // n >= 1 (the schema's minimum)
      res.json(encodeChatCompletion(id, model.id, created, results));
      return;
    }
    if ((request.n ?? 1) > 1) throw invalid('unsupported_n', 'Streaming supports "n": 1 only.', 'n');
    const encoder = new ChatChunkEncoder(id, model.id, created, Boolean(body.stream_options?.include_usage));
    await pumpStream(res, {
      parts: () => deps.text.stream(principal, request, meta),
      encode: (part) => dataMessages(encoder.encode(part)),
      finish: () => [{ data: '[DONE]' }],
      renderError: (err) => [{ data: openAiErrorShape.render(err).body }],
    });
  });
  router.use(errorMiddleware(openAiErrorShape.render));
  return router;
}
