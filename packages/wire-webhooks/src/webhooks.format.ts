import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { WEBHOOKS_BASE, WEBHOOKS_FORMAT, webhooksRoutes, type WebhooksRouterDeps } from './webhooks.router';

/** Webhook endpoints managed with the account's key, in the OpenAI family's error shape. */
export const webhooksFormat: WireFormat<WebhooksRouterDeps> = {
  name: WEBHOOKS_FORMAT,
  routes: webhooksRoutes,
  errorShapes: [openAiErrorShape],
  pathClaims: [{ path: WEBHOOKS_BASE, shape: openAiErrorShape.name }],
};
