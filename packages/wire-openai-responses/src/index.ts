export { openAiResponsesFormat, type ResponsesFormatDeps } from './responses.format';
export { openAiResponsesRouter, type ResponsesRouterDeps } from './responses.router';
