export { usageFormat } from './usage.format';
export { adminUsageRoutes, type AdminUsageDeps } from './admin-usage.router';
