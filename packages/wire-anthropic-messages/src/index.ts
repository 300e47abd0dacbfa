export { anthropicMessagesFormat } from './messages.format';
export { messagesRoutes, type MessagesRouterDeps } from './messages.router';
