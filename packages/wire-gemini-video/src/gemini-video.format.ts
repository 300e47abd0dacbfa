import { codeMessageErrorShape, type WireFormat } from '@gateway/http-kit';
import { GEMINI_VIDEO_FORMAT, geminiVideoRoutes, type GeminiVideoRouterDeps } from './gemini-video.router';

/**
 * Veo's long-running operations: `{code, message}` errors on the operation and file paths, which sit inside the
 * `/v1beta/` tree that is otherwise Google-shaped (a longer claim wins); the same routes under `/v1`.
 */
export const geminiVideoFormat: WireFormat<GeminiVideoRouterDeps> = {
  name: GEMINI_VIDEO_FORMAT,
  routes: geminiVideoRoutes,
  errorShapes: [codeMessageErrorShape],
  pathClaims: [
    { path: '/v1beta/files/', shape: codeMessageErrorShape.name },
    { path: /^\/v1\/files\/[^/]*:download$/, shape: codeMessageErrorShape.name },
    { path: /^\/v1(beta)?\/models\/[^/]*(:predictLongRunning$|\/operations\/)/, shape: codeMessageErrorShape.name },
  ],
};
