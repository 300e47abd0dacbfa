import { invalid, newId, type TextGeneration } from '@gateway/core';
import { cacheCallMeta, jsonBody, jsonRequestBody, openAiErrorShape, pumpStream, routeOf, sendWarnings } from '@gateway/http-kit';
import { chatCompletion } from './chat.openapi';
import { decodeChatRequest } from './chat.request.codec';
import { chatRequestSchema, type ChatRequestBody } from './chat.request.schema';
import { encodeChatCompletion } from './chat.response.codec';
import { ChatChunkEncoder } from './chat.stream.codec';

export interface ChatRouterDeps {
  text: TextGeneration;
}

const route = routeOf<ChatRouterDeps>();

export const chatRoutes = [
  route({
    method: 'post',
    path: '/v1/chat/completions',
    batch: { format: 'openai', kind: 'text' },
    summary: 'Create a chat completion',
    description: 'With `"stream": true` the answer is server-sent `chat.completion.chunk` events ending with `data: [DONE]`.',
    format: 'openai-chat',
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<ChatRequestBody>(chatRequestSchema),
    response: {
      description: 'A `chat.completion`, or its chunks as server-sent events when streaming.',
      content: { 'application/json': chatCompletion, 'text/event-stream': { type: 'string' } },
    },
    errors: 'openai',
    parse: [jsonBody()],
    async handle({ deps, principal, requestId, signal, body }, req, res) {
      const model = deps.text.resolve(principal, body.model);
      const request = decodeChatRequest(body, model);
      const id = `chatcmpl-${newId('', 12)}`;
      const created = Math.floor(Date.now() / 1000);
      const cache = cacheCallMeta(req, res);
      // n > 1 asks for different answers: never one answer replayed n times
      if ((request.n ?? 1) > 1) cache.cacheControl = { noCache: true, noStore: true };
      const meta = { format: 'openai-chat', requestId, signal, model, ...cache };

      if (!body.stream) {
        const n = request.n ?? 1;
        const one = () => deps.text.generate(principal, { ...request, n: 1 }, meta);
        const results = n === 1 ? [await one()] : await Promise.all(Array.from({ length: n }, one));
        sendWarnings(res, results[0]!.warnings); // n >= 1 (the schema's minimum)
        res.json(encodeChatCompletion(id, model.id, created, results));
        return;
      }
      if ((request.n ?? 1) > 1) throw invalid('unsupported_n', 'Streaming supports "n": 1 only.', 'n');
      const encoder = new ChatChunkEncoder(id, model.id, created, Boolean(body.stream_options?.include_usage));
      await pumpStream(res, {
        parts: () => deps.text.stream(principal, request, { ...meta, forward: encoder.forwarding() }),
        encode: (part) => encoder.messages(part),
        finish: () => [{ data: '[DONE]' }],
        renderError: (err) => [{ data: openAiErrorShape.render(err).body }],
      });
    },
  }),
];
