import { Router, type Request, type Response } from 'express';
import {
  invalid,
  newId,
  type GatewayError,
  type ImageGeneration,
  type ModelCatalogue,
  type TextGeneration,
  type Warning,
} from '@gateway/core';
import {
  compileValidator,
  countInputTokens,
  dataMessages,
  errorMiddleware,
  geminiRoute,
  jsonBody,
  principalOf,
  pumpStream,
  requireKey,
  sendWarnings,
  requestSignal,
  type Authenticator,
} from '@gateway/http-kit';
import { googleErrorShape } from './generate-content.error';
import { generateImageContent } from './generate-content.image';
import { decodeGenerateContent } from './generate-content.request.codec';
import {
  countTokensRequestSchema,
  generateContentRequestSchema,
  type CountTokensRequestBody,
  type GenerateContentRequestBody,
} from './generate-content.request.schema';
import { encodeGenerateContent } from './generate-content.response.codec';
import { GenerateContentChunkEncoder } from './generate-content.stream.codec';

const validate = compileValidator<GenerateContentRequestBody>(generateContentRequestSchema);
const validateCount = compileValidator<CountTokensRequestBody>(countTokensRequestSchema);

/**
 * `/v1beta/models/{model}:{verb}` has a colon inside one path segment, which string routes would read as a
 * parameter. A regex claims only this package's two verbs (the model is everything up to the last colon), so
 * `:predictLongRunning` and `GET /v1beta/models` fall through to the routers that own them. Served under `/v1` too.
 */
export const GENERATE_CONTENT_ROUTE = geminiRoute('/models/([^/]+):(generateContent|streamGenerateContent)');
export const COUNT_TOKENS_ROUTE = geminiRoute('/models/([^/]+):countTokens');

/** Bare `data:` events only: the SDK drops any event that starts with an `event:` line, and there is no [DONE]. */
const googleEvents = {
  encode: (chunk: object) => [{ data: chunk }],
  renderError: (err: GatewayError) => [{ data: googleErrorShape.render(err).body }],
};

async function* once<T>(produce: () => Promise<T>): AsyncGenerator<T> {
  yield await produce();
}

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
    const { model: _named, ...generate } = body.generateContentRequest ?? { contents: body.contents ?? [] };
    const { request } = decodeGenerateContent(generate, deps.text.resolve(principal, modelId));
    res.json({ totalTokens: await countInputTokens(res, deps.text, principal, request, 'gemini-content') });
  });
  router.post(
    GENERATE_CONTENT_ROUTE,
    requireKey(deps.authenticate, ['x-goog-api-key']),
    jsonBody(),
    async (req: Request, res: Response) => {
      const params = req.params as unknown as { 0: string; 1: string }; // the route's two captures
      const [modelId, verb] = [params[0], params[1]];
      const principal = principalOf(res);
      const meta = {
        format: 'gemini-content',
        requestId: res.locals.requestId as string,
        signal: requestSignal(res),
        // hosted tools the chosen upstream does not run (core/hosted-tools.ts), known before the first event
        onWarnings: (w: readonly Warning[]) => sendWarnings(res, w),
      };
      const body = validate(req.body);
      const spec = deps.catalogue.get(modelId);
      if (spec?.kind === 'image' && deps.catalogue.keyAllows(principal, modelId)) {
        // Image models answer with inlineData parts; a stream carries the whole answer in one chunk.
        const answer = () =>
          generateImageContent(deps.images, principal, modelId, body, meta, { responseId: newId('', 12), modelVersion: modelId });
        if (verb === 'streamGenerateContent' && req.query.alt === 'sse')
          await pumpStream(res, { ...googleEvents, parts: () => once(answer) });
        else res.json(verb === 'streamGenerateContent' ? [await answer()] : await answer());
        return;
      }
      const model = deps.text.resolve(principal, modelId);
      const { request, includeThoughts } = decodeGenerateContent(body, model);
      const who = { responseId: newId('', 12), modelVersion: model.id };

      if (verb === 'generateContent') {
        const result = await deps.text.generate(principal, request, { ...meta, model });
        sendWarnings(res, result.warnings);
        res.json(encodeGenerateContent(who, result, includeThoughts));
        return;
      }
      const encoder = new GenerateContentChunkEncoder(who, includeThoughts);
      const parts = () => deps.text.stream(principal, request, { ...meta, model });
      if (req.query.alt !== 'sse') {
        // Without alt=sse Google answers with one JSON array of the chunks; it is sent whole once generation ends.
        const chunks: object[] = [];
        for await (const part of parts()) chunks.push(...encoder.encode(part));
        res.json(chunks);
        return;
      }
      await pumpStream(res, { ...googleEvents, parts, encode: (part) => dataMessages(encoder.encode(part)) });
    },
  );
  router.use(errorMiddleware(googleErrorShape.render));
  return router;
}
