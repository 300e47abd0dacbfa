import type { Route } from '@gateway/http-kit';
import {
  accountRoutes,
  adminCacheRoutes,
  adminFormat,
  adminKeyRoutes,
  catalogueRoutes,
  type AdminCacheDeps,
  type AdminDeps,
} from '@gateway/wire-admin';
import { sendVideoContent, videoContentParams, videoContentResponse } from '@gateway/wire-openai-videos';
import { adminTaskRoutes, type AdminTaskDeps } from '@gateway/wire-video-tasks';
import { adminUsageRoutes, type AdminUsageDeps } from '@gateway/wire-usage';
import { adminWebhookRoutes, type AdminWebhookDeps } from '@gateway/wire-webhooks';
import { adminMcpRoutes, type AdminMcpDeps } from '@gateway/wire-mcp';
import { configSchema } from '../config.schema';

/** What every /admin route works with: each wire package's admin services. */
export type AllAdminDeps = AdminDeps & AdminCacheDeps & AdminUsageDeps & AdminWebhookDeps & AdminTaskDeps & AdminMcpDeps;

/** The catalogue's routes; their PUT bodies are the config file's own entry schemas. */
const catalogue = catalogueRoutes({
  providers: configSchema.properties.providers.items,
  models: configSchema.properties.models.items,
  groups: configSchema.properties.groups.items,
});

/** Every /admin route behind the admin key; a task's admin download answers as the account's video download does. */
export const adminRoutes: Array<Route<AllAdminDeps>> = [
  ...adminFormat.routes,
  ...adminUsageRoutes,
  ...adminWebhookRoutes,
  ...adminTaskRoutes({ params: videoContentParams, response: videoContentResponse, send: sendVideoContent }),
  ...catalogue,
  ...adminMcpRoutes,
];

/** What the CLI's commands call: accounts, quotas, keys, the cache purge and the catalogue. */
export const cliAdminRoutes: Array<Route<AdminDeps & AdminCacheDeps>> = [
  ...accountRoutes,
  ...adminKeyRoutes,
  ...adminCacheRoutes,
  ...catalogue,
];
