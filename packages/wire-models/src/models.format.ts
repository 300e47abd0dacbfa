import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { ANTHROPIC_SHAPE, GOOGLE_SHAPE, modelsRoutes, type ModelsRouterDeps } from './models.router';

/**
 * The model lists of three SDK families. `/v1beta/models` answers in Google's shape; `/v1/models` in the caller's own
 * dialect, read from how it authenticates (model-list-dialect.ts): Google's for `x-goog-api-key` or `?key=`,
 * Anthropic's when the request carries `anthropic-version` (as the Anthropic SDK always does), OpenAI's otherwise.
 */
export const modelsFormat: WireFormat<ModelsRouterDeps> = {
  name: 'models',
  routes: modelsRoutes,
  errorShapes: [openAiErrorShape],
  pathClaims: [
    { path: /^\/v1\/models(\/|$)/, shape: GOOGLE_SHAPE, whenHeader: 'x-goog-api-key' },
    { path: /^\/v1\/models(\/|$)/, shape: ANTHROPIC_SHAPE, whenHeader: 'anthropic-version' },
  ],
};
