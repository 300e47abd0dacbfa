import type { Request, Response } from 'express';
import { GatewayError, type GeneratedImageStore, type ImageCommand, type ImageGeneration } from '@gateway/core';
import {
  jsonBody,
  jsonRequestBody,
  jsonOrMultipart,
  openAiErrorShape,
  pathParam,
  pumpStream,
  routeOf,
  sendJsonAnswer,
  type KeyedContext,
} from '@gateway/http-kit';
import { defaultResponseFormat } from './default-response-format';
import type { ImageFetcher } from './image-inputs';
import { editForm, imagesResult } from './images.openapi';
import { coerceMultipartFields, decodeEditRequest, decodeGenerationRequest, type UploadedFile } from './images.request.codec';
import { editRequestSchema, generationRequestSchema, type EditRequestBody, type GenerationRequestBody } from './images.request.schema';
import { encodeImagesResponse, type ResponseFormat } from './images.response.codec';
import { ImageEventEncoder } from './images.stream.codec';

/** A multipart edit's fields arrive as strings: numbers and booleans are read before the JSON schema checks them. */
const editBody = jsonRequestBody<EditRequestBody>(editRequestSchema, {
  alternatives: { 'multipart/form-data': editForm },
  prepare: (raw, req) =>
    req.is('multipart/form-data') ? coerceMultipartFields((raw ?? {}) as Parameters<typeof coerceMultipartFields>[0]) : raw,
});

export interface ImagesRouterDeps {
  images: ImageGeneration;
  imageFiles: GeneratedImageStore;
  /** read per request: the origin image URLs are built on */
  publicBaseUrl: (req: Request) => string;
  /** https image inputs; default: safeFetch (public addresses only) */
  fetchImage?: ImageFetcher;
}

async function run(
  { deps, principal, requestId, signal }: KeyedContext<ImagesRouterDeps>,
  res: Response,
  command: ImageCommand,
  responseFormat: ResponseFormat,
) {
  const call = deps.images.prepare(principal, command);
  const meta = { format: 'openai-images', requestId, signal };
  const created = Math.floor(Date.now() / 1000);
  if (!call.stream) {
    const result = await deps.images.generate(principal, call, meta);
    const save = async (image: { data: Uint8Array; mediaType: string }) =>
      `${deps.publicBaseUrl(res.req)}/v1/images/files/${(await deps.imageFiles.save(image.data, image.mediaType)).name}`;
    sendJsonAnswer(res, result, await encodeImagesResponse(created, call, result, responseFormat, save));
    return;
  }
  const encoder = new ImageEventEncoder(call, created);
  await pumpStream(res, {
    parts: () => deps.images.stream(principal, call, meta),
    encode: (part) => encoder.encode(part).map((e) => ({ data: e, event: e.type })),
    renderError: (err) => [{ data: { type: 'error', ...(openAiErrorShape.render(err).body as object) }, event: 'error' }],
  });
}

const route = routeOf<ImagesRouterDeps>();

export const imagesRoutes = [
  route({
    method: 'post',
    path: '/v1/images/generations',
    summary: 'Generate images',
    format: 'openai-images',
    auth: { kind: 'api-key', role: 'member' },
    body: jsonRequestBody<GenerationRequestBody>(generationRequestSchema),
    response: imagesResult,
    errors: 'openai',
    parse: [jsonBody()],
    async handle(ctx, _req, res) {
      const { body } = ctx;
      ctx.deps.images.resolve(ctx.principal, body.model);
      await run(ctx, res, decodeGenerationRequest(body), defaultResponseFormat(body.model, body.response_format));
    },
  }),
  route({
    method: 'post',
    path: '/v1/images/edits',
    summary: 'Edit images',
    description: 'JSON (images as https URLs, data URLs or base64) or multipart/form-data (images as file parts).',
    format: 'openai-images',
    auth: { kind: 'api-key', role: 'member' },
    body: editBody,
    response: imagesResult,
    errors: 'openai',
    parse: [jsonOrMultipart()],
    async handle(ctx, req, res) {
      const { body } = ctx;
      const multipart = Boolean(req.is('multipart/form-data'));
      // The model first: no URL is fetched for a request that cannot run.
      ctx.deps.images.resolve(ctx.principal, body.model);
      const files = (multipart ? (req.files as UploadedFile[] | undefined) : undefined) ?? [];
      const command = await decodeEditRequest(body, files, ctx.deps.fetchImage);
      await run(ctx, res, command, defaultResponseFormat(body.model, body.response_format));
    },
  }),
  route({
    method: 'get',
    path: '/v1/images/files/{name}',
    summary: 'Download a generated image',
    description: 'The URL returned in `data[].url`; it expires.',
    format: 'openai-images',
    auth: { kind: 'none', why: 'The unguessable name is the credential, so the URL works in an <img> tag.' },
    params: [pathParam('name', 'The file name from `data[].url`.')],
    response: { description: 'The image bytes.', content: { 'image/*': { type: 'string', contentMediaType: 'image/*' } } },
    errors: 'openai',
    async handle({ deps }, req, res) {
      const image = await deps.imageFiles.open(String(req.params.name));
      if (!image) throw new GatewayError('not_found', 'This image URL does not exist or has expired.', { code: 'image_not_found' });
      res.setHeader('Content-Type', image.mediaType);
      res.setHeader('Cache-Control', `private, max-age=${Math.max(0, Math.floor((image.expiresAt - Date.now()) / 1000))}`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end(image.data);
    },
  }),
];
