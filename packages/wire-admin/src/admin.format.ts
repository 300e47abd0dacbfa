import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { adminCacheRoutes, type AdminCacheDeps } from './admin-cache.router';
import { adminKeyRoutes } from './admin-keys.router';
import type { AdminDeps } from './admin-route';
import { accountRoutes, adminAuditRoute } from './admin.router';
import { selfServiceRoutes, type SelfServiceDeps } from './self-service.router';

/** The platform admin's accounts, quotas, keys, audit log and response cache purge (the catalogue routes take the config's schemas: catalogueRoutes). */
export const adminFormat: WireFormat<AdminDeps & AdminCacheDeps> = {
  name: 'admin',
  routes: [...accountRoutes, ...adminKeyRoutes, adminAuditRoute, ...adminCacheRoutes],
  errorShapes: [openAiErrorShape],
};

/** An account admin's own keys and audit slice, and any key's view of itself. */
export const selfServiceFormat: WireFormat<SelfServiceDeps> = {
  name: 'self-service',
  routes: selfServiceRoutes,
  errorShapes: [openAiErrorShape],
};
