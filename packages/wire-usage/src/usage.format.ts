import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { usageRoutes, type UsageRouterDeps } from './usage.router';

/** A caller's own usage rows, in the OpenAI family's error shape. */
export const usageFormat: WireFormat<UsageRouterDeps> = {
  name: 'usage',
  routes: usageRoutes,
  errorShapes: [openAiErrorShape],
};
