export { geminiContentFormat } from './generate-content.format';
export { geminiGenerateContentRouter, type GenerateContentRouterDeps } from './generate-content.router';
