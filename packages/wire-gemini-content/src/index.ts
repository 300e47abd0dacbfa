export { geminiContentFormat } from './generate-content.format';
export { googleErrorParts } from './generate-content.error';
export { geminiGenerateContentRouter } from './generate-content.router';
