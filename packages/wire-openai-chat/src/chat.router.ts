import { Router } from 'express';
import { invalid, newId, toGatewayError, type TextGeneration } from '@gateway/core';
import {
  admitStream,
  compileValidator,
  errorMiddleware,
  jsonBody,
  principalOf,
  renderOpenAiError,
  requireKey,
  SseWriter,
  type Authenticator,
} from '@gateway/http-kit';
import { decodeChatRequest } from './chat.request.codec';
import { chatRequestSchema } from './chat.request.schema';
import { encodeChatCompletion } from './chat.response.codec';
import { ChatChunkEncoder } from './chat.stream.codec';

const validate = compileValidator<Record<string, any>>(chatRequestSchema);

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
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const meta = { format: 'openai-chat', requestId: res.locals.requestId as string, signal: abort.signal, model };

    if (!body.stream) {
      const n = request.n ?? 1;
      const results = await Promise.all(Array.from({ length: n }, () => deps.text.generate(principal, { ...request, n: 1 }, meta)));
      if (results[0].warnings.length) res.setHeader('x-gateway-warnings', results[0].warnings.join('; '));
      res.json(encodeChatCompletion(id, model.id, created, results));
      return;
    }
    if ((request.n ?? 1) > 1) throw invalid('unsupported_n', 'Streaming supports "n": 1 only.', 'n');
    // The concurrent-streams limit is checked before the upstream is called: a refused stream costs it nothing.
    if (!(await admitStream(res))) return;
    const parts = deps.text.stream(principal, request, meta);
    // Pull the first part before committing to 200, so an upstream failure is still a plain HTTP error.
    const first = await parts.next();
    const sse = new SseWriter(res);
    sse.abort.signal.addEventListener('abort', () => abort.abort());
    const encoder = new ChatChunkEncoder(id, model.id, created, Boolean(body.stream_options?.include_usage));
    try {
      if (!first.done) for (const c of encoder.encode(first.value)) await sse.send(c);
      for await (const part of { [Symbol.asyncIterator]: () => parts }) {
        if (sse.closed) break;
        for (const c of encoder.encode(part)) await sse.send(c);
      }
      await sse.send('[DONE]');
    } catch (e) {
      const err = toGatewayError(e);
      await sse.send(renderOpenAiError(err).body);
    } finally {
      if (sse.closed) await parts.return(undefined);
      sse.end();
    }
  });
  router.use(errorMiddleware(renderOpenAiError));
  return router;
}
