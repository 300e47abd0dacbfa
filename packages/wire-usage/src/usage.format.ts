import type { UsageQuery } from '@gateway/core';
import { openAiErrorShape, type Authenticator, type WireFormat } from '@gateway/http-kit';
import { usageRoutes } from './usage.openapi';
import { usageRouter } from './usage.router';

/** A caller's own usage rows, in the OpenAI family's error shape. */
export const usageFormat: WireFormat<{ authenticate: Authenticator; usageQuery: UsageQuery }> = {
  name: 'usage',
  routers: (deps) => [usageRouter({ authenticate: deps.authenticate, usage: deps.usageQuery })],
  routeDocs: usageRoutes,
  errorShapes: [openAiErrorShape],
};
