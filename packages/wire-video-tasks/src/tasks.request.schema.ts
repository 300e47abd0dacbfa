import type { FromSchema } from 'json-schema-to-ts';
import { ASPECT_RATIOS, RESOLUTIONS, VIDEO_DEFAULTS, VIDEO_FAMILY_LIMITS } from '@gateway/core';
import { IMAGE_ROLES } from './content-items.codec';

export const SERVICE_TIERS = ['default', 'flex'] as const;
/** Ark's documented window for execution_expires_after, in seconds. */
export const EXPIRES_AFTER_RANGE = Object.freeze({ min: 3600, max: 259200 });

const families = Object.values(VIDEO_FAMILY_LIMITS);

/** One `content[]` item as documented; checked by content-items.codec.ts, whose refusals name each case. */
const contentItem = {
  type: 'object',
  required: ['type'],
  oneOf: [
    { properties: { type: { const: 'text' }, text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    {
      properties: {
        type: { const: 'image_url' },
        image_url: {
          type: 'object',
          required: ['url'],
          properties: { url: { type: 'string', description: 'An https URL or a data URL.' } },
        },
        role: { enum: [...IMAGE_ROLES], default: 'first_frame' },
      },
      required: ['image_url'],
      additionalProperties: false,
    },
  ],
} as const;

/**
 * The create body: the OpenAPI description and, through `createTaskValidationSchema`, what ajv checks. `x-refusal`
 * names each node's stable code. Null counts as absent (withoutAbsentMembers runs first).
 */
export const createTaskRequestSchema = {
  type: 'object',
  'x-refusal': { required: 'missing_model' },
  required: ['model', 'content'],
  additionalProperties: false,
  properties: {
    model: { type: 'string', minLength: 1, 'x-refusal': 'missing_model' },
    content: { type: 'array', items: contentItem, description: 'One text item (the prompt) and image items by role.' },
    ratio: { enum: [...ASPECT_RATIOS], default: VIDEO_DEFAULTS.aspectRatio },
    resolution: { enum: [...RESOLUTIONS], default: VIDEO_DEFAULTS.resolution },
    duration: {
      type: 'integer',
      minimum: Math.min(...families.map((f) => f.minSeconds)),
      maximum: Math.max(...families.map((f) => f.maxSeconds)),
      default: VIDEO_DEFAULTS.durationSeconds,
    },
    generate_audio: { type: 'boolean', default: VIDEO_DEFAULTS.generateAudio, 'x-refusal': 'invalid_generate_audio' },
    priority: { type: 'integer', minimum: 0, 'x-refusal': 'invalid_priority' },
    service_tier: { enum: [...SERVICE_TIERS], 'x-refusal': 'invalid_service_tier' },
    execution_expires_after: {
      type: 'integer',
      minimum: EXPIRES_AFTER_RANGE.min,
      maximum: EXPIRES_AFTER_RANGE.max,
      'x-refusal': 'invalid_execution_expires_after',
    },
    callback_url: {
      type: 'string',
      'x-refusal': 'invalid_webhook_url',
      description:
        'POSTed the task object (this format) at every status change, signed per Standard Webhooks with the callback secret of the account (docs/webhooks.md).',
    },
  },
} as const;

/**
 * What ajv checks: the same schema, except the members whose refusals are worded elsewhere. `content` items go to
 * content-items.codec.ts (a refusal per item kind), ratio/resolution/duration to the core limits table (its messages
 * name the model's own values); `content` being an array at all is checked by the codec too.
 */
const { content: _content, ratio: _ratio, resolution: _resolution, duration: _duration, ...checked } = createTaskRequestSchema.properties;
export const createTaskValidationSchema = {
  ...createTaskRequestSchema,
  required: ['model'],
  properties: { ...checked, content: {}, ratio: {}, resolution: {}, duration: {} },
} as const;

export type CreateTaskRequestBody = FromSchema<typeof createTaskValidationSchema, { keepDefaultedPropertiesOptional: true }>;
