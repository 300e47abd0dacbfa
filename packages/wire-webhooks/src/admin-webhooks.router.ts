import type { WebhookEndpoints } from '@gateway/core';
import { adminRouteOf, changedBy, jsonBody, jsonContent as json, pathParam, queryParam } from '@gateway/http-kit';
import { encodeDelivery, encodeEndpoint } from './webhooks.object.codec';
import { createEndpointBody, updateEndpointBody } from './webhooks.request.schema';

/** What the admin webhook routes change: every account's endpoints. */
export interface AdminWebhookDeps {
  webhooks: WebhookEndpoints;
}

const adminRoute = adminRouteOf<AdminWebhookDeps>();

const withAccount = (e: Parameters<typeof encodeEndpoint>[0]) => ({ ...encodeEndpoint(e), account: e.accountId });

// the objects are the account API's, plus `account`
const id = pathParam('id', 'The endpoint id.');
const account = pathParam('account', 'The account id.');
const endpoint = { type: 'object', description: 'As GET /v1/webhook_endpoints/{id} answers it, with `account`.' };

/**
 * Webhook endpoints of any account, behind the admin key: the same rules as the account API (one use case), with
 * the account named in the path when creating. Endpoint objects carry `account`; secrets are shown only at creation.
 */
export const adminWebhookRoutes = [
  adminRoute({
    method: 'get',
    path: '/admin/webhook_endpoints',
    summary: "Every account's webhook endpoints",
    params: [queryParam('account', 'Only this account’s.')],
    response: {
      description: 'The endpoints, without secrets.',
      content: json({ type: 'object', properties: { data: { type: 'array', items: endpoint } } }),
    },
    async handle({ deps }, req, res) {
      const account = typeof req.query.account === 'string' ? req.query.account : undefined;
      const list = account ? (await deps.webhooks.list(account)).endpoints : await deps.webhooks.listAll();
      res.json({ object: 'list', data: list.map(withAccount) });
    },
  }),
  adminRoute({
    method: 'post',
    path: '/admin/accounts/{account}/webhook_endpoints',
    summary: 'Create a webhook endpoint for an account',
    params: [account],
    body: createEndpointBody,
    response: { description: 'The endpoint and its secret (shown this once).', content: json(endpoint) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      const { endpoint, secret } = await ctx.deps.webhooks.create(String(req.params.account), ctx.body, changedBy(ctx, req));
      res.json({ ...withAccount(endpoint), secret });
    },
  }),
  adminRoute({
    method: 'get',
    path: '/admin/webhook_endpoints/{id}',
    summary: 'Read a webhook endpoint',
    params: [id],
    response: { description: 'The endpoint.', content: json(endpoint) },
    async handle({ deps }, req, res) {
      res.json(withAccount(await deps.webhooks.get(undefined, String(req.params.id))));
    },
  }),
  adminRoute({
    method: 'patch',
    path: '/admin/webhook_endpoints/{id}',
    summary: 'Change a webhook endpoint',
    description: 'A new `url` and/or `events`; fields left out are kept, and so is the secret.',
    params: [id],
    body: updateEndpointBody,
    response: { description: 'The endpoint.', content: json(endpoint) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(withAccount(await ctx.deps.webhooks.update(undefined, String(req.params.id), ctx.body, changedBy(ctx, req))));
    },
  }),
  adminRoute({
    method: 'delete',
    path: '/admin/webhook_endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    params: [id],
    response: { description: 'Deleted.', content: json({ type: 'object', properties: { deleted: { const: true } } }) },
    async handle(ctx, req, res) {
      await ctx.deps.webhooks.remove(undefined, String(req.params.id), changedBy(ctx, req));
      res.json({ object: 'webhook_endpoint.deleted', id: String(req.params.id), deleted: true });
    },
  }),
  adminRoute({
    method: 'get',
    path: '/admin/webhook_endpoints/{id}/deliveries',
    summary: "A webhook endpoint's latest deliveries and their attempts",
    params: [id],
    response: { description: 'As the account API lists them.', content: json({ type: 'object', properties: { data: { type: 'array' } } }) },
    async handle({ deps }, req, res) {
      res.json({ object: 'list', data: (await deps.webhooks.deliveries(undefined, String(req.params.id))).map(encodeDelivery) });
    },
  }),
  adminRoute({
    method: 'post',
    path: '/admin/accounts/{account}/webhook_secret',
    summary: "Re-issue an account's callback_url signing secret",
    params: [account],
    response: {
      description: 'The new secret (shown this once); the old one stops verifying at once.',
      content: json({ type: 'object', properties: { account: { type: 'string' }, callback_secret: { type: 'string' } } }),
    },
    // Re-issue a signing secret (one that leaked, or one no secret opens after a GATEWAY_SECRET rotation): admin only.
    async handle(ctx, req, res) {
      const account = String(req.params.account);
      res.json({
        object: 'webhook_secret',
        account,
        callback_secret: await ctx.deps.webhooks.reissueAccountSecret(account, changedBy(ctx, req)),
      });
    },
  }),
  adminRoute({
    method: 'post',
    path: '/admin/webhook_endpoints/{id}/secret',
    summary: "Re-issue a webhook endpoint's signing secret",
    params: [id],
    response: {
      description: 'The new secret (shown this once); the old one stops verifying at once.',
      content: json({ type: 'object', properties: { id: { type: 'string' }, secret: { type: 'string' } } }),
    },
    async handle(ctx, req, res) {
      const id = String(req.params.id);
      res.json({ object: 'webhook_secret', id, secret: await ctx.deps.webhooks.reissueEndpointSecret(id, changedBy(ctx, req)) });
    },
  }),
];
