export { usageFormat } from './usage.format';
export { adminUsageHandler } from './usage.summary';
export { adminUsageRequestsHandler } from './usage.requests';
export { csvTable } from './usage.csv';
