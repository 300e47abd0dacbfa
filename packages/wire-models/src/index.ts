export { modelsFormat } from './models.format';
export { modelsRoutes, type ModelsRouterDeps } from './models.router';
