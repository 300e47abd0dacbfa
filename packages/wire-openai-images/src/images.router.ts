import { Router, type Request, type Response } from 'express';
import { GatewayError, type GeneratedImageStore, type ImageCommand, type ImageGeneration } from '@gateway/core';
import { defaultResponseFormat } from './default-response-format';
import {
  compileValidator,
  errorMiddleware,
  jsonBody,
  openAiErrorShape,
  jsonOrMultipart,
  principalOf,
  pumpStream,
  requireKey,
  sendWarnings,
  requestSignal,
  type Authenticator,
} from '@gateway/http-kit';
import type { ImageFetcher } from './image-inputs';
import { coerceMultipartFields, decodeEditRequest, decodeGenerationRequest, type UploadedFile } from './images.request.codec';
import { editRequestSchema, generationRequestSchema, type EditRequestBody, type GenerationRequestBody } from './images.request.schema';
import { encodeImagesResponse, type ResponseFormat } from './images.response.codec';
import { ImageEventEncoder } from './images.stream.codec';

const validateGeneration = compileValidator<GenerationRequestBody>(generationRequestSchema);
const validateEdit = compileValidator<EditRequestBody>(editRequestSchema);

export interface ImagesRouterDeps {
  authenticate: Authenticator;
  images: ImageGeneration;
  files: GeneratedImageStore;
  /** read per request: the origin image URLs are built on */
  publicBaseUrl: (req: Request) => string;
  /** https image inputs; default: safeFetch (public addresses only) */
  fetchImage?: ImageFetcher;
}

export function openAiImagesRouter(deps: ImagesRouterDeps): Router {
  const router = Router();

  async function run(res: Response, command: ImageCommand, responseFormat: ResponseFormat) {
    const principal = principalOf(res);
    const call = deps.images.prepare(principal, command);
    const meta = { format: 'openai-images', requestId: res.locals.requestId as string, signal: requestSignal(res) };
    const created = Math.floor(Date.now() / 1000);
    if (!call.stream) {
      const result = await deps.images.generate(principal, call, meta);
      sendWarnings(res, result.warnings);
      const save = async (image: { data: Uint8Array; mediaType: string }) =>
        `${deps.publicBaseUrl(res.req)}/v1/images/files/${(await deps.files.save(image.data, image.mediaType)).name}`;
      res.json(await encodeImagesResponse(created, call, result, responseFormat, save));
      return;
    }
    const encoder = new ImageEventEncoder(call, created);
    await pumpStream(res, {
      parts: () => deps.images.stream(principal, call, meta),
      encode: (part) => encoder.encode(part).map((e) => ({ data: e, event: e.type })),
      renderError: (err) => [{ data: { type: 'error', ...(openAiErrorShape.render(err).body as object) }, event: 'error' }],
    });
  }

  router.post('/v1/images/generations', requireKey(deps.authenticate), jsonBody(), async (req, res) => {
    const body = validateGeneration(req.body);
    deps.images.resolve(principalOf(res), body.model);
    await run(res, decodeGenerationRequest(body), defaultResponseFormat(body.model, body.response_format));
  });

  router.post('/v1/images/edits', requireKey(deps.authenticate), jsonOrMultipart(), async (req, res) => {
    const multipart = Boolean(req.is('multipart/form-data'));
    const body = validateEdit(multipart ? coerceMultipartFields(req.body ?? {}) : req.body);
    // The model first: no URL is fetched for a request that cannot run.
    deps.images.resolve(principalOf(res), body.model);
    const files = (multipart ? (req.files as UploadedFile[] | undefined) : undefined) ?? [];
    const command = await decodeEditRequest(body, files, deps.fetchImage);
    await run(res, command, defaultResponseFormat(body.model, body.response_format));
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

  router.use(errorMiddleware(openAiErrorShape.render));
  return router;
}
