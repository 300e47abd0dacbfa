export { anthropicMessagesFormat } from './messages.format';
