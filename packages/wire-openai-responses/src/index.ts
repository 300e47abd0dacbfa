export { openAiResponsesFormat } from './responses.format';
export { responsesSocket } from './responses.websocket';
export { attachSocketRoutes } from './responses.websocket.transport';
