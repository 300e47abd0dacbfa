import type { WireFormat } from '@gateway/http-kit';
import { googleErrorShape } from './generate-content.error';
import { embedContentRoutes, type EmbedContentRouterDeps } from './embed-content.router';

/** Gemini embedContent and batchEmbedContents; their paths are in the Gemini content format's error-shape claims. */
export const geminiEmbedFormat: WireFormat<EmbedContentRouterDeps> = {
  name: 'gemini-embed',
  routes: embedContentRoutes,
  errorShapes: [googleErrorShape],
};
