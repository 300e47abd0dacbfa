export { adminFormat, selfServiceFormat } from './admin.format';
export { accountRoutes, adminAuditRoute, catalogueRoutes, type CatalogueSchemas } from './admin.router';
export { adminKeyRoutes } from './admin-keys.router';
export { adminKeyGate, type AdminDeps, type CatalogueAdmin, type CatalogueKind } from './admin-route';
export { adminPaths } from './admin-paths';
export { selfServiceRoutes, type SelfServiceDeps } from './self-service.router';
