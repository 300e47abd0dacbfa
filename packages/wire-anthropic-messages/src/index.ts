export { anthropicMessagesFormat } from './messages.format';
export { anthropicMessagesRouter, type MessagesRouterDeps } from './messages.router';
