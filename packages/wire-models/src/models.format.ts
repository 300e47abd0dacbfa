import { openAiErrorShape, type ErrorShape, type WireFormat } from '@gateway/http-kit';
import { geminiModelsRouter } from './gemini-models.router';
import type { ModelsRouterDeps } from './models-router-deps';
import { modelsRoutes } from './models.openapi';
import { v1ModelsRouter } from './v1-models.router';

/** The error shapes the model lists answer in besides OpenAI's, by name: their packages define them. */
export const ANTHROPIC_SHAPE = 'anthropic';
export const GOOGLE_SHAPE = 'google';

export interface ModelsFormatDeps extends Omit<ModelsRouterDeps, 'render'> {
  /** another format's error shape by name (the composition root looks it up among the formats) */
  errorShape(name: string): ErrorShape;
}

/**
 * The model lists of three SDK families. `/v1beta/models` answers in Google's shape; `/v1/models` in the caller's own
 * dialect, read from how it authenticates (model-list-dialect.ts): Google's for `x-goog-api-key` or `?key=`,
 * Anthropic's when the request carries `anthropic-version` (as the Anthropic SDK always does), OpenAI's otherwise.
 */
export const modelsFormat: WireFormat<ModelsFormatDeps> = {
  name: 'models',
  routers: ({ errorShape, ...deps }) => {
    const render = {
      openai: openAiErrorShape.render,
      anthropic: errorShape(ANTHROPIC_SHAPE).render,
      google: errorShape(GOOGLE_SHAPE).render,
    };
    return [geminiModelsRouter({ ...deps, render }), v1ModelsRouter({ ...deps, render })];
  },
  routeDocs: modelsRoutes,
  errorShapes: [openAiErrorShape],
  pathClaims: [
    { path: /^\/v1\/models(\/|$)/, shape: GOOGLE_SHAPE, whenHeader: 'x-goog-api-key' },
    { path: /^\/v1\/models(\/|$)/, shape: ANTHROPIC_SHAPE, whenHeader: 'anthropic-version' },
  ],
};
