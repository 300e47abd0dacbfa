export { usageFormat } from './usage.format';
export { adminUsageHandler } from './usage.summary';
