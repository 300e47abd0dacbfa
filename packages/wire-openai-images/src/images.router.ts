import { Router, type Response } from 'express';
import { defaultResponseFormat } from './default-response-format';
import { GatewayError, toGatewayError, type ImageCommand, type ImageGeneration } from '@gateway/core';
import {
  admitStream,
  compileValidator,
  errorMiddleware,
  jsonBody,
  jsonOrMultipart,
  principalOf,
  renderOpenAiError,
  requireKey,
  SseWriter,
  type Authenticator,
} from '@gateway/http-kit';
import type { ExpiringImageFiles } from './image-files';
import type { ImageFetcher } from './image-inputs';
import { coerceMultipartFields, decodeEditRequest, decodeGenerationRequest, type UploadedFile } from './images.request.codec';
import { editRequestSchema, generationRequestSchema } from './images.request.schema';
import { encodeImagesResponse, type ResponseFormat } from './images.response.codec';
import { ImageEventEncoder } from './images.stream.codec';

const validateGeneration = compileValidator<Record<string, any>>(generationRequestSchema);
const validateEdit = compileValidator<Record<string, any>>(editRequestSchema);

export interface ImagesRouterDeps {
  authenticate: Authenticator;
  images: ImageGeneration;
  files: ExpiringImageFiles;
  /** read per request: the origin image URLs are built on */
  publicBaseUrl: () => string;
  /** https image inputs; default: safeFetch (public addresses only) */
  fetchImage?: ImageFetcher;
}

export function openAiImagesRouter(deps: ImagesRouterDeps): Router {
  const router = Router();

  async function run(res: Response, command: ImageCommand, responseFormat: ResponseFormat, signal: AbortSignal) {
    const principal = principalOf(res);
    const call = deps.images.prepare(principal, command);
    const meta = { format: 'openai-images', requestId: res.locals.requestId as string, signal };
    const created = Math.floor(Date.now() / 1000);
    if (!call.stream) {
      const result = await deps.images.generate(principal, call, meta);
      if (result.warnings.length) res.setHeader('x-gateway-warnings', result.warnings.join('; '));
      const save = async (image: { data: Uint8Array; mediaType: string }) =>
        `${deps.publicBaseUrl()}/v1/images/files/${(await deps.files.save(image.data, image.mediaType)).name}`;
      res.json(await encodeImagesResponse(created, call, result, responseFormat, save));
      return;
    }
    // The concurrent-streams limit is checked before the upstream is called: a refused stream costs it nothing.
    if (!(await admitStream(res))) return;
    const parts = deps.images.stream(principal, call, meta);
    // The first part decides the status: an upstream failure before any image is still a plain HTTP error.
    const first = await parts.next();
    const sse = new SseWriter(res);
    const encoder = new ImageEventEncoder(call, created);
    try {
      for (let step = first; !step.done && !sse.closed; step = await parts.next()) {
        for (const e of encoder.encode(step.value)) await sse.send(e, e.type);
      }
    } catch (e) {
      await sse.send({ type: 'error', ...(renderOpenAiError(toGatewayError(e)).body as object) }, 'error');
    } finally {
      if (sse.closed) await parts.return(undefined);
      sse.end();
    }
  }

  function abortOnClose(res: Response): AbortSignal {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    return abort.signal;
  }

  router.post('/v1/images/generations', requireKey(deps.authenticate), jsonBody(), async (req, res) => {
    const body = validateGeneration(req.body);
    deps.images.resolve(principalOf(res), body.model);
    await run(res, decodeGenerationRequest(body), defaultResponseFormat(body.model, body.response_format), abortOnClose(res));
  });

  router.post('/v1/images/edits', requireKey(deps.authenticate), jsonOrMultipart(), async (req, res) => {
    const multipart = Boolean(req.is('multipart/form-data'));
    const body = validateEdit(multipart ? coerceMultipartFields(req.body ?? {}) : req.body);
    // The model first: no URL is fetched for a request that cannot run.
    deps.images.resolve(principalOf(res), body.model);
    const signal = abortOnClose(res);
    const files = (multipart ? (req.files as UploadedFile[] | undefined) : undefined) ?? [];
    const command = await decodeEditRequest(body, files, deps.fetchImage);
    await run(res, command, defaultResponseFormat(body.model, body.response_format), signal);
  });

  // No key: the unguessable name is the credential, so the URL works in an <img> tag.
  router.get('/v1/images/files/:name', async (req, res) => {
    const image = await deps.files.open(String(req.params.name));
    if (!image) throw new GatewayError('not_found', 'This image URL does not exist or has expired.', { code: 'image_not_found' });
    res.setHeader('Content-Type', image.mediaType);
    res.setHeader('Cache-Control', `private, max-age=${Math.max(0, Math.floor((image.expiresAt - Date.now()) / 1000))}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(image.data);
  });

  router.use(errorMiddleware(renderOpenAiError));
  return router;
}
