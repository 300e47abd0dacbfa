import type { WireFormat } from '@gateway/http-kit';
import { googleErrorShape } from './generate-content.error';
import { generateContentRoutes, type GenerateContentRouterDeps } from './generate-content.router';

/**
 * Gemini generateContent, under `/v1beta` and `/v1` alike: Google's error shape is the default for the whole `/v1beta/`
 * tree, and for the `models/{model}:{verb}` paths of `/v1` (the rest of `/v1` is OpenAI's).
 */
export const geminiContentFormat: WireFormat<GenerateContentRouterDeps> = {
  name: 'gemini-content',
  routes: generateContentRoutes,
  errorShapes: [googleErrorShape],
  pathClaims: [
    { path: '/v1beta/', shape: googleErrorShape.name },
    { path: /^\/v1\/models\/[^/]*:/, shape: googleErrorShape.name },
  ],
};
