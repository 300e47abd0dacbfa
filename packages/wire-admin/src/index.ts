export { adminFormat, selfServiceFormat } from './admin.format';
export { accountRoutes, catalogueRoutes } from './admin.router';
export { adminKeyRoutes } from './admin-keys.router';
export { adminCacheRoutes, type AdminCacheDeps } from './admin-cache.router';
export { adminKeyGate, type AdminDeps, type CatalogueKind } from './admin-route';
export { adminPaths } from './admin-paths';
