export { geminiContentFormat } from './generate-content.format';
export { googleErrorParts } from './generate-content.error';
export { geminiEmbedFormat } from './embed-content.format';
