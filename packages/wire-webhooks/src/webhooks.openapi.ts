import { WEBHOOK_EVENT_TYPES } from '@gateway/core';

export const endpoint = {
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

export const delivery = {
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
