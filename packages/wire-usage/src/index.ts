export { usageFormat } from './usage.format';
export { sendUsageSummary } from './usage.summary';
export { sendUsageRequests } from './usage.requests';
export { sendUsageLatency } from './usage.latency';
