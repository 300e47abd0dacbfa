import type { WireFormat } from '@gateway/http-kit';
import { anthropicErrorShape } from './messages.error';
import { messageBatchesRoutes, type MessageBatchesDeps } from './messages.batches.router';
import { messagesRoutes, type MessagesRouterDeps } from './messages.router';

/** Anthropic messages: the routes, and Anthropic's error shape for everything under `/v1/messages`. */
export const anthropicMessagesFormat: WireFormat<MessagesRouterDeps & MessageBatchesDeps> = {
  name: 'anthropic-messages',
  // the batch routes first: `/v1/messages/batches` is theirs
  routes: [...messageBatchesRoutes, ...messagesRoutes],
  errorShapes: [anthropicErrorShape],
  pathClaims: [{ path: '/v1/messages', shape: anthropicErrorShape.name }],
};
