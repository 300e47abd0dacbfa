import { accountRoutes, adminAuditRoute, adminKeyRoutes, catalogueRoutes } from '@gateway/wire-admin';
import { configSchema } from '../config.schema';
import { adminTaskRoutes } from './admin-tasks.router';
import { adminUsageRoutes } from './admin-usage.router';
import { adminWebhookRoutes } from './admin-webhooks.router';

/** The catalogue's routes; their PUT bodies are the config file's own entry schemas. */
const catalogue = catalogueRoutes({
  providers: configSchema.properties.providers.items,
  models: configSchema.properties.models.items,
  groups: configSchema.properties.groups.items,
});

/** Every /admin route behind the admin key. */
export const adminRoutes = [
  ...accountRoutes,
  ...adminKeyRoutes,
  ...adminUsageRoutes,
  ...adminWebhookRoutes,
  ...adminTaskRoutes,
  ...catalogue,
  adminAuditRoute,
];

/** What the CLI's commands call: accounts, quotas, keys and the catalogue. */
export const cliAdminRoutes = [...accountRoutes, ...adminKeyRoutes, ...catalogue];
