import { accountRoutes, adminAuditRoute, adminKeyRoutes, catalogueRoutes } from '@gateway/wire-admin';
import { configSchema } from '../config.schema';
import { adminTaskRoutes } from './admin-tasks.router';
import { adminUsageRoutes } from './admin-usage.router';
import { adminWebhookRoutes } from './admin-webhooks.router';

/** Every /admin route behind the admin key; the catalogue's PUT bodies are the config file's own entry schemas. */
export const adminRoutes = [
  ...accountRoutes,
  ...adminKeyRoutes,
  ...adminUsageRoutes,
  ...adminWebhookRoutes,
  ...adminTaskRoutes,
  ...catalogueRoutes({
    providers: configSchema.properties.providers.items,
    models: configSchema.properties.models.items,
    groups: configSchema.properties.groups.items,
  }),
  adminAuditRoute,
];
