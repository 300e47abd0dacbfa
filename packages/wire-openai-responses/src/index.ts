export { openAiResponsesFormat } from './responses.format';
export { responsesRoutes, type ResponsesRouterDeps } from './responses.router';
export {
  responsesSocket,
  RESPONSES_SOCKET_PATH,
  type ResponsesSocket,
  type SocketAcceptance,
  type TextSocket,
} from './responses.websocket';
