import type { RequestHandler } from 'express';
import {
  errorShapesOf,
  mountRoutes,
  openAiErrorShape,
  rendererForPath,
  type Authenticator,
  type ErrorShape,
  type RouteDoc,
  type WireFormat,
} from '@gateway/http-kit';
import { anthropicMessagesFormat } from '@gateway/wire-anthropic-messages';
import { geminiContentFormat, geminiEmbedFormat } from '@gateway/wire-gemini-content';
import { geminiVideoFormat } from '@gateway/wire-gemini-video';
import { modelsFormat } from '@gateway/wire-models';
import { openAiAudioFormat } from '@gateway/wire-openai-audio';
import { openAiChatFormat } from '@gateway/wire-openai-chat';
import { openAiEmbeddingsFormat } from '@gateway/wire-openai-embeddings';
import { openAiFilesFormat } from '@gateway/wire-openai-files';
import { openAiBatchesFormat } from '@gateway/wire-openai-batches';
import { openAiImagesFormat } from '@gateway/wire-openai-images';
import { openAiModerationsFormat } from '@gateway/wire-openai-moderations';
import { openAiResponsesFormat } from '@gateway/wire-openai-responses';
import { openAiVideosFormat } from '@gateway/wire-openai-videos';
import { rerankFormat } from '@gateway/wire-rerank';
import { usageFormat } from '@gateway/wire-usage';
import { videoTasksFormat } from '@gateway/wire-video-tasks';
import { webhooksFormat } from '@gateway/wire-webhooks';
import { mcpFormat } from '@gateway/wire-mcp';

/**
 * Every wire format the gateway serves, in mounting order (it matters only where paths overlap: the model lists
 * before the video operations). The routers, the OpenAPI document, the error shape of unrouted paths and the fuzz
 * suite's endpoints all derive from this list: adding a format is one package plus one line here.
 */
export const WIRE_FORMATS = [
  openAiChatFormat,
  anthropicMessagesFormat,
  geminiContentFormat,
  geminiEmbedFormat,
  openAiEmbeddingsFormat,
  openAiResponsesFormat,
  openAiImagesFormat,
  openAiAudioFormat,
  rerankFormat,
  openAiModerationsFormat,
  modelsFormat,
  geminiVideoFormat,
  openAiVideosFormat,
  videoTasksFormat,
  usageFormat,
  webhooksFormat,
  // after Gemini's `/v1/files/{id}:download`, which the file routes would otherwise take
  openAiFilesFormat,
  openAiBatchesFormat,
  mcpFormat,
] as const;

type DepsOf<F> = F extends WireFormat<infer D> ? D : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The services the formats' routers ask for, together: the composition root must provide every one. */
export type WireServices = Intersection<DepsOf<(typeof WIRE_FORMATS)[number]>>;

/** The gateway's own routes (operations, admin) answer in OpenAI's shape; so does a path no format claims. */
export const SERVER_ERROR_SHAPE = openAiErrorShape;

/** Every error shape by name: the formats' and the server's own. */
export const ERROR_SHAPES = errorShapesOf([...WIRE_FORMATS, { errorShapes: [SERVER_ERROR_SHAPE] }]);

export function errorShapeNamed(name: string): ErrorShape {
  const shape = ERROR_SHAPES.get(name);
  if (!shape) throw new Error(`No wire format declares the error shape ${name}`);
  return shape;
}

/** The error renderer for a failure no router answered, from the formats' path claims. */
export const rendererForUnroutedPath = rendererForPath(WIRE_FORMATS, SERVER_ERROR_SHAPE);

/** Every route the formats declare, in mounting order. */
export const WIRE_ROUTES: readonly RouteDoc[] = WIRE_FORMATS.flatMap((f): readonly RouteDoc[] => f.routes);

/** The formats' routes, mounted from their declarations; each answers in its own error shape. */
export function wireRouters(services: WireServices, authenticate: Authenticator): RequestHandler[] {
  return WIRE_FORMATS.map((f: WireFormat<WireServices>) => mountRoutes(f.routes, services, { authenticate, errorShape: errorShapeNamed }));
}
