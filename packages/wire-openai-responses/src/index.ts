export { openAiResponsesFormat } from './responses.format';
export { responsesSocket, type SocketAcceptance, type TextSocket } from './responses.websocket';
