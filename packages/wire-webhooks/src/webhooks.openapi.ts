import { WEBHOOK_EVENT_TYPES } from '@gateway/core';
import type { RouteDoc } from '@gateway/http-kit';
import { createEndpointSchema, updateEndpointSchema } from './webhooks.request.schema';
import { WEBHOOKS_BASE, WEBHOOKS_FORMAT } from './webhooks.router';

const endpoint = {
  type: 'object',
  required: ['object', 'id', 'url', 'events', 'status', 'created_at'],
  properties: {
    object: { const: 'webhook_endpoint' },
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { enum: [...WEBHOOK_EVENT_TYPES] } },
    status: { enum: ['enabled', 'disabled'] },
    disabled_reason: { type: ['string', 'null'] },
    failing_since: { type: ['integer', 'null'] },
    created_at: { type: 'integer' },
  },
};

const delivery = {
  type: 'object',
  properties: {
    object: { const: 'webhook_delivery' },
    id: { type: 'string' },
    event_id: { type: 'string', description: 'The webhook-id header: the same on every attempt.' },
    type: { enum: [...WEBHOOK_EVENT_TYPES] },
    task_id: { type: 'string' },
    status: { enum: ['pending', 'delivered', 'failed'] },
    next_attempt_at: { type: ['integer', 'null'] },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          attempt: { type: 'integer' },
          at: { type: 'integer' },
          response_status: { type: ['integer', 'null'] },
          response_body: { type: ['string', 'null'], description: 'The first 512 bytes of the answer.' },
          error: { type: ['string', 'null'] },
          duration_ms: { type: 'integer' },
        },
      },
    },
  },
};

const json = (schema: object) => ({ 'application/json': schema });
const common = { format: WEBHOOKS_FORMAT, auth: { kind: 'api-key' as const, role: 'admin' as const }, errors: 'openai' };

export const webhooksRoutes: RouteDoc[] = [
  {
    ...common,
    method: 'post',
    path: WEBHOOKS_BASE,
    summary: 'Create a webhook endpoint',
    description: 'Returns the endpoint with its signing secret (`whsec_…`), shown this once. docs/webhooks.md.',
    body: { required: true, content: json(createEndpointSchema) },
    response: {
      description: 'The endpoint and its secret.',
      content: json({ ...endpoint, properties: { ...endpoint.properties, secret: { type: 'string' } } }),
    },
  },
  {
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
  },
  {
    ...common,
    method: 'get',
    path: `${WEBHOOKS_BASE}/{id}`,
    summary: 'Read a webhook endpoint',
    response: { description: 'The endpoint.', content: json(endpoint) },
  },
  {
    ...common,
    method: 'patch',
    path: `${WEBHOOKS_BASE}/{id}`,
    summary: 'Change a webhook endpoint',
    description: 'A new `url` and/or `events`; fields left out are kept, and so is the secret. Audited (`webhook_endpoint.update`).',
    body: { required: true, content: json(updateEndpointSchema) },
    response: { description: 'The endpoint.', content: json(endpoint) },
  },
  {
    ...common,
    method: 'delete',
    path: `${WEBHOOKS_BASE}/{id}`,
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries go with it.',
    response: {
      description: 'Deleted.',
      content: json({
        type: 'object',
        properties: { object: { const: 'webhook_endpoint.deleted' }, id: { type: 'string' }, deleted: { const: true } },
      }),
    },
  },
  {
    ...common,
    method: 'get',
    path: `${WEBHOOKS_BASE}/{id}/deliveries`,
    summary: "An endpoint's latest deliveries",
    description: 'Newest first (up to 100), each with its attempts and what the endpoint answered.',
    response: {
      description: 'The deliveries.',
      content: json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: delivery } } }),
    },
  },
];
