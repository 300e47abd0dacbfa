import type { WireFormat } from '@gateway/http-kit';
import { geminiBatchesRoutes, type GeminiBatchesDeps } from './batches.router';
import { googleErrorShape } from './generate-content.error';
import { generateContentRoutes, type GenerateContentRouterDeps } from './generate-content.router';

/**
 * Gemini generateContent, under `/v1beta` and `/v1` alike: Google's error shape is the default for the whole `/v1beta/`
 * tree, and for the `models/{model}:{verb}` paths of `/v1` (the rest of `/v1` is OpenAI's).
 */
export const geminiContentFormat: WireFormat<GenerateContentRouterDeps & GeminiBatchesDeps> = {
  name: 'gemini-content',
  // batch mode (batches.router.ts) mounts before OpenAI's batches: `/v1/batches…` is shared, by how the caller authenticates
  routes: [...generateContentRoutes, ...geminiBatchesRoutes],
  errorShapes: [googleErrorShape],
  pathClaims: [
    { path: '/v1beta/', shape: googleErrorShape.name },
    { path: /^\/v1\/models\/[^/]*:/, shape: googleErrorShape.name },
    { path: /^\/v1\/batches\/[^/]*:/, shape: googleErrorShape.name },
    { path: /^\/v1\/batches(\/|$)/, shape: googleErrorShape.name, whenHeader: 'x-goog-api-key' },
  ],
};
