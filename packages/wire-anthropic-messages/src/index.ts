export { anthropicMessagesFormat } from './messages.format';
export { anthropicMessagesRouter } from './messages.router';
