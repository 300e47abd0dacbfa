import { Router, type Request, type Response } from 'express';
import { invalid, newId, toGatewayError, type ImageGeneration, type ModelCatalogue, type TextGeneration } from '@gateway/core';
import {
  admitStream,
  compileValidator,
  countInputTokens,
  errorMiddleware,
  jsonBody,
  principalOf,
  renderGoogleError,
  requireKey,
  SseWriter,
  type Authenticator,
} from '@gateway/http-kit';
import { generateImageContent } from './generate-content.image';
import { decodeGenerateContent } from './generate-content.request.codec';
import { countTokensRequestSchema, generateContentRequestSchema } from './generate-content.request.schema';
import { encodeGenerateContent } from './generate-content.response.codec';
import { GenerateContentChunkEncoder } from './generate-content.stream.codec';

const validate = compileValidator<Record<string, any>>(generateContentRequestSchema);
const validateCount = compileValidator<Record<string, any>>(countTokensRequestSchema);

/**
 * `/v1beta/models/{model}:{verb}` has a colon inside one path segment, which string routes would read as a
 * parameter. A regex claims only this package's two verbs (the model is everything up to the last colon), so
 * `:predictLongRunning` and `GET /v1beta/models` fall through to the routers that own them.
 */
export const GENERATE_CONTENT_ROUTE = /^\/v1beta\/models\/([^/]+):(generateContent|streamGenerateContent)$/;
export const COUNT_TOKENS_ROUTE = /^\/v1beta\/models\/([^/]+):countTokens$/;

export interface GenerateContentRouterDeps {
  authenticate: Authenticator;
  text: TextGeneration;
  catalogue: ModelCatalogue;
  images: ImageGeneration;
}

export function geminiGenerateContentRouter(deps: GenerateContentRouterDeps): Router {
  const router = Router();
  // The SDK sends `x-goog-api-key`; a bearer token works too, as on every other route.
  /** Counted by the upstream when it can (Google, the simulator); otherwise estimated (countInputTokens). */
  router.post(COUNT_TOKENS_ROUTE, requireKey(deps.authenticate, ['x-goog-api-key']), jsonBody(), async (req: Request, res: Response) => {
    const modelId = (req.params as unknown as Record<string, string>)[0];
    const principal = principalOf(res);
    const body = validateCount(req.body);
    if ((body.contents === undefined) === (body.generateContentRequest === undefined)) {
      throw invalid('invalid_count_request', 'Send either "contents" or "generateContentRequest" (one of the two).', 'contents');
    }
    // The path names the model; generateContentRequest.model (`models/…`) repeats it and must not travel upstream.
    const { model: _named, ...generate } = body.generateContentRequest ?? { contents: body.contents };
    const { request } = decodeGenerateContent(generate, deps.text.resolve(principal, modelId));
    res.json({ totalTokens: await countInputTokens(res, deps.text, principal, request, 'gemini-content') });
  });
  router.post(
    GENERATE_CONTENT_ROUTE,
    requireKey(deps.authenticate, ['x-goog-api-key']),
    jsonBody(),
    async (req: Request, res: Response) => {
      const params = req.params as unknown as Record<string, string>;
      const [modelId, verb] = [params[0], params[1]];
      const principal = principalOf(res);
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const meta = { format: 'gemini-content', requestId: res.locals.requestId as string, signal: abort.signal };
      const body = validate(req.body);
      const spec = deps.catalogue.get(modelId);
      if (spec?.kind === 'image' && deps.catalogue.groupAllows(principal.group, modelId)) {
        // Image models answer with inlineData parts; a stream carries the whole answer in one chunk.
        const answer = await generateImageContent(deps.images, principal, modelId, body, meta, {
          responseId: newId('', 12),
          modelVersion: modelId,
        });
        if (verb === 'streamGenerateContent' && req.query.alt === 'sse') {
          const sse = new SseWriter(res);
          await sse.send(answer);
          sse.end();
        } else res.json(verb === 'streamGenerateContent' ? [answer] : answer);
        return;
      }
      const model = deps.text.resolve(principal, modelId);
      const { request, includeThoughts } = decodeGenerateContent(body, model);
      const who = { responseId: newId('', 12), modelVersion: model.id };

      if (verb === 'generateContent') {
        const result = await deps.text.generate(principal, request, { ...meta, model });
        if (result.warnings.length) res.setHeader('x-gateway-warnings', result.warnings.join('; '));
        res.json(encodeGenerateContent(who, result, includeThoughts));
        return;
      }
      const encoder = new GenerateContentChunkEncoder(who, includeThoughts);
      const parts = deps.text.stream(principal, request, { ...meta, model });
      if (req.query.alt !== 'sse') {
        // Without alt=sse Google answers with one JSON array of the chunks; it is sent whole once generation ends.
        const chunks: object[] = [];
        for await (const part of parts) chunks.push(...encoder.encode(part));
        res.json(chunks);
        return;
      }
      // The concurrent-streams limit is checked before the upstream is called: a refused stream costs it nothing.
      if (!(await admitStream(res))) return;
      // Pull the first part before committing to 200, so an upstream failure is still a plain HTTP error.
      const first = await parts.next();
      const sse = new SseWriter(res);
      sse.abort.signal.addEventListener('abort', () => abort.abort());
      // Bare `data:` events only: the SDK drops any event that starts with an `event:` line, and there is no [DONE].
      try {
        if (!first.done) for (const c of encoder.encode(first.value)) await sse.send(c);
        for await (const part of { [Symbol.asyncIterator]: () => parts }) {
          if (sse.closed) break;
          for (const c of encoder.encode(part)) await sse.send(c);
        }
      } catch (e) {
        await sse.send(renderGoogleError(toGatewayError(e)).body);
      } finally {
        if (sse.closed) await parts.return(undefined);
        sse.end();
      }
    },
  );
  router.use(errorMiddleware(renderGoogleError));
  return router;
}
