export { webhooksFormat } from './webhooks.format';
export { adminWebhookRoutes, type AdminWebhookDeps } from './admin-webhooks.router';
export { httpWebhookSender } from './webhook-sender';
