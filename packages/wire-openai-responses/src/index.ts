export { openAiResponsesFormat, type ResponsesFormatDeps } from './responses.format';
export { openAiResponsesRouter, type ResponsesRouterDeps } from './responses.router';
export {
  responsesSocket,
  RESPONSES_SOCKET_PATH,
  type ResponsesSocket,
  type SocketAcceptance,
  type TextSocket,
} from './responses.websocket';
