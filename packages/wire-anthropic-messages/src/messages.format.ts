import type { WireFormat } from '@gateway/http-kit';
import { anthropicErrorShape } from './messages.error';
import { messagesRoutes, type MessagesRouterDeps } from './messages.router';

/** Anthropic messages: the routes, and Anthropic's error shape for everything under `/v1/messages`. */
export const anthropicMessagesFormat: WireFormat<MessagesRouterDeps> = {
  name: 'anthropic-messages',
  routes: messagesRoutes,
  errorShapes: [anthropicErrorShape],
  pathClaims: [{ path: '/v1/messages', shape: anthropicErrorShape.name }],
};
