export { adminFormat, selfServiceFormat } from './admin.format';
export { accountRoutes, catalogueRoutes } from './admin.router';
export { adminKeyRoutes } from './admin-keys.router';
export { adminKeyGate, type AdminDeps, type CatalogueKind } from './admin-route';
export { adminPaths } from './admin-paths';
