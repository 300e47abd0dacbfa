export { openAiResponsesFormat } from './responses.format';
export { openAiResponsesRouter } from './responses.router';
export { responsesSocket, type SocketAcceptance, type TextSocket } from './responses.websocket';
