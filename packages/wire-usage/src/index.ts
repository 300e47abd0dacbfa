export { usageFormat } from './usage.format';
