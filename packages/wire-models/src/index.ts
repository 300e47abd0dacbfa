export { modelsFormat } from './models.format';
