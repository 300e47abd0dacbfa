import type { WireFormat } from '@gateway/http-kit';
import { googleErrorShape } from './generate-content.error';
import { generateContentRoutes } from './generate-content.openapi';
import { geminiGenerateContentRouter, type GenerateContentRouterDeps } from './generate-content.router';

/** Gemini generateContent: Google's error shape is the default for the whole `/v1beta/` tree. */
export const geminiContentFormat: WireFormat<GenerateContentRouterDeps> = {
  name: 'gemini-content',
  routers: (deps) => [geminiGenerateContentRouter(deps)],
  routeDocs: generateContentRoutes,
  errorShapes: [googleErrorShape],
  pathClaims: [{ path: '/v1beta/', shape: googleErrorShape.name }],
};
