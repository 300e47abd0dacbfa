import type { WebhookEndpoints } from '@gateway/core';
import { changedBy, deletionReceipt, jsonBody, jsonContent as json, routeOf } from '@gateway/http-kit';
import { encodeDelivery, encodeEndpoint } from './webhooks.object.codec';
import { delivery, endpoint } from './webhooks.openapi';
import { createEndpointBody, updateEndpointBody } from './webhooks.request.schema';

export interface WebhooksRouterDeps {
  webhooks: WebhookEndpoints;
}

export const WEBHOOKS_FORMAT = 'webhooks';
export const WEBHOOKS_BASE = '/v1/webhook_endpoints';

const route = routeOf<WebhooksRouterDeps>();
const common = { format: WEBHOOKS_FORMAT, auth: { kind: 'api-key' as const, role: 'admin' as const, session: true }, errors: 'openai' };

/** The account's own endpoints, managed with an account admin's key; each change is audited (docs/admin.md, "Audit"). */
export const webhooksRoutes = [
  route({
    ...common,
    method: 'post',
    path: WEBHOOKS_BASE,
    summary: 'Create a webhook endpoint',
    description: 'Returns the endpoint with its signing secret (`whsec_…`), shown this once. docs/webhooks.md.',
    body: createEndpointBody,
    response: {
      description: 'The endpoint and its secret.',
      content: json({ ...endpoint, properties: { ...endpoint.properties, secret: { type: 'string' } } }),
    },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      const { endpoint, secret } = await ctx.deps.webhooks.create(ctx.principal.accountId, ctx.body, changedBy(ctx, req));
      // the only answer that shows the secret
      res.json({ ...encodeEndpoint(endpoint), secret });
    },
  }),
  route({
    ...common,
    method: 'get',
    path: WEBHOOKS_BASE,
    summary: "List the account's webhook endpoints",
    description: 'Without their secrets; `callback_secret` is the account secret callback_url deliveries are signed with.',
    response: {
      description: 'The endpoints.',
      content: json({
        type: 'object',
        properties: { object: { const: 'list' }, data: { type: 'array', items: endpoint }, callback_secret: { type: 'string' } },
      }),
    },
    async handle({ deps, principal }, _req, res) {
      const { endpoints, callbackSecret } = await deps.webhooks.list(principal.accountId);
      res.json({ object: 'list', data: endpoints.map(encodeEndpoint), callback_secret: callbackSecret });
    },
  }),
  route({
    ...common,
    method: 'get',
    path: `${WEBHOOKS_BASE}/{id}`,
    summary: 'Read a webhook endpoint',
    response: { description: 'The endpoint.', content: json(endpoint) },
    async handle({ deps, principal }, req, res) {
      res.json(encodeEndpoint(await deps.webhooks.get(principal.accountId, String(req.params.id))));
    },
  }),
  route({
    ...common,
    method: 'patch',
    path: `${WEBHOOKS_BASE}/{id}`,
    summary: 'Change a webhook endpoint',
    description: 'A new `url` and/or `events`; fields left out are kept, and so is the secret. Audited (`webhook_endpoint.update`).',
    body: updateEndpointBody,
    response: { description: 'The endpoint.', content: json(endpoint) },
    parse: [jsonBody()],
    async handle(ctx, req, res) {
      res.json(
        encodeEndpoint(await ctx.deps.webhooks.update(ctx.principal.accountId, String(req.params.id), ctx.body, changedBy(ctx, req))),
      );
    },
  }),
  route({
    ...common,
    method: 'delete',
    path: `${WEBHOOKS_BASE}/{id}`,
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries go with it.',
    response: deletionReceipt('webhook_endpoint.deleted'),
    async handle(ctx, req, res) {
      await ctx.deps.webhooks.remove(ctx.principal.accountId, String(req.params.id), changedBy(ctx, req));
      res.json({ object: 'webhook_endpoint.deleted', id: String(req.params.id), deleted: true });
    },
  }),
  route({
    ...common,
    method: 'get',
    path: `${WEBHOOKS_BASE}/{id}/deliveries`,
    summary: "An endpoint's latest deliveries",
    description: 'Newest first (up to 100), each with its attempts and what the endpoint answered.',
    response: {
      description: 'The deliveries.',
      content: json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: delivery } } }),
    },
    async handle({ deps, principal }, req, res) {
      const list = await deps.webhooks.deliveries(principal.accountId, String(req.params.id));
      res.json({ object: 'list', data: list.map(encodeDelivery) });
    },
  }),
];
