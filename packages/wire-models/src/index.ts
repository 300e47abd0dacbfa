export { modelsFormat, type ModelsFormatDeps } from './models.format';
