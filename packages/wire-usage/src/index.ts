export { usageFormat } from './usage.format';
export { adminUsageHandler } from './usage.summary';
export { adminUsageRequestsHandler } from './usage.requests';
export { adminUsageLatencyHandler } from './usage.latency';
export { csvTable } from './usage.csv';
