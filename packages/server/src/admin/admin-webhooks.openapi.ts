import type { ParamDoc, RouteDoc, SchemaDoc } from '@gateway/http-kit';
import { createEndpointSchema, updateEndpointSchema } from '@gateway/wire-webhooks';

/** The /admin webhook routes (admin-webhooks.router.ts); the objects are the account API's, plus `account`. */
const json = (schema: SchemaDoc) => ({ 'application/json': schema });
const route = (r: Omit<RouteDoc, 'format' | 'auth' | 'errors'>): RouteDoc => ({
  ...r,
  format: 'admin',
  auth: { kind: 'admin-key' },
  errors: 'openai',
});
const id: ParamDoc = { name: 'id', in: 'path', required: true, description: 'The endpoint id.', schema: { type: 'string' } };
const endpoint = { type: 'object', description: 'As GET /v1/webhook_endpoints/{id} answers it, with `account`.' };

export const adminWebhookRoutes: RouteDoc[] = [
  route({
    method: 'get',
    path: '/admin/webhook_endpoints',
    summary: "Every account's webhook endpoints",
    params: [{ name: 'account', in: 'query', description: 'Only this account’s.', schema: { type: 'string' } }],
    response: {
      description: 'The endpoints, without secrets.',
      content: json({ type: 'object', properties: { data: { type: 'array', items: endpoint } } }),
    },
  }),
  route({
    method: 'post',
    path: '/admin/accounts/{account}/webhook_endpoints',
    summary: 'Create a webhook endpoint for an account',
    params: [{ name: 'account', in: 'path', required: true, description: 'The account id.', schema: { type: 'string' } }],
    body: { required: true, content: json(createEndpointSchema) },
    response: { description: 'The endpoint and its secret (shown this once).', content: json(endpoint) },
  }),
  route({
    method: 'get',
    path: '/admin/webhook_endpoints/{id}',
    summary: 'Read a webhook endpoint',
    params: [id],
    response: { description: 'The endpoint.', content: json(endpoint) },
  }),
  route({
    method: 'patch',
    path: '/admin/webhook_endpoints/{id}',
    summary: 'Change a webhook endpoint',
    description: 'A new `url` and/or `events`; fields left out are kept, and so is the secret.',
    params: [id],
    body: { required: true, content: json(updateEndpointSchema) },
    response: { description: 'The endpoint.', content: json(endpoint) },
  }),
  route({
    method: 'delete',
    path: '/admin/webhook_endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    params: [id],
    response: { description: 'Deleted.', content: json({ type: 'object', properties: { deleted: { const: true } } }) },
  }),
  route({
    method: 'get',
    path: '/admin/webhook_endpoints/{id}/deliveries',
    summary: "A webhook endpoint's latest deliveries and their attempts",
    params: [id],
    response: { description: 'As the account API lists them.', content: json({ type: 'object', properties: { data: { type: 'array' } } }) },
  }),
  route({
    method: 'post',
    path: '/admin/accounts/{account}/webhook_secret',
    summary: "Re-issue an account's callback_url signing secret",
    params: [{ name: 'account', in: 'path', required: true, description: 'The account id.', schema: { type: 'string' } }],
    response: {
      description: 'The new secret (shown this once); the old one stops verifying at once.',
      content: json({ type: 'object', properties: { account: { type: 'string' }, callback_secret: { type: 'string' } } }),
    },
  }),
  route({
    method: 'post',
    path: '/admin/webhook_endpoints/{id}/secret',
    summary: "Re-issue a webhook endpoint's signing secret",
    params: [id],
    response: {
      description: 'The new secret (shown this once); the old one stops verifying at once.',
      content: json({ type: 'object', properties: { id: { type: 'string' }, secret: { type: 'string' } } }),
    },
  }),
];
