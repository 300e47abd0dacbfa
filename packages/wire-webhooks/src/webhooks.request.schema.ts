import { WEBHOOK_EVENT_TYPES } from '@gateway/core';
import { jsonRequestBody } from '@gateway/http-kit';

/** The create body; the URL and event rules themselves (and their refusals) are core's, so ajv checks only the shape. */
export const createEndpointSchema = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', description: 'https URL (http and private addresses only for hosts in WEBHOOK_ALLOWED_HOSTS).' },
    events: {
      type: 'array',
      items: { enum: [...WEBHOOK_EVENT_TYPES] },
      minItems: 1,
      description: 'The event types to receive; all when absent.',
    },
  },
} as const;

/** PATCH: a new url and/or event list; at least one. */
export const updateEndpointSchema = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: createEndpointSchema.properties,
} as const;

/** The bodies as the account's and the admin's routes check them. */
export const createEndpointBody = jsonRequestBody<{ url: string; events?: string[] }>(createEndpointSchema, {
  code: 'invalid_request',
  required: true,
});
export const updateEndpointBody = jsonRequestBody<{ url?: string; events?: string[] }>(updateEndpointSchema, {
  code: 'invalid_request',
  required: true,
});
