import { geminiModelsRouter, v1ModelsRouter } from '@gateway/wire-models';
import type { AreaWiring, WiringContext } from './context';

/** The model lists: Gemini's `/v1beta/models`, OpenAI's and Anthropic's `/v1/models`. */
export function wireModels(ctx: WiringContext): AreaWiring {
  const deps = { authenticate: ctx.authenticate, catalogue: ctx.config.catalogue };
  return { routers: [geminiModelsRouter(deps), v1ModelsRouter(deps)] };
}
