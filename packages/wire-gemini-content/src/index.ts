export { geminiContentFormat } from './generate-content.format';
export { googleErrorParts } from './generate-content.error';
export { generateContentRoutes, type GenerateContentRouterDeps } from './generate-content.router';
