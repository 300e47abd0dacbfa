import { TASK_STATUSES } from '@gateway/core';
import { pathParam, type ParamDoc } from '@gateway/http-kit';

export const task = {
  type: 'object',
  required: ['id', 'model', 'status', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    model: { type: 'string' },
    status: { enum: [...TASK_STATUSES] },
    error: {
      anyOf: [
        { type: 'null' },
        { type: 'object', required: ['message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
      ],
    },
    content: {
      type: 'object',
      properties: { video_url: { type: 'string', description: 'Set once succeeded; download with the same key.' } },
    },
    usage: { type: 'object', properties: { completion_tokens: { type: 'integer' }, total_tokens: { type: 'integer' } } },
    output_format: { type: 'string' },
    framespersecond: { type: 'integer' },
    resolution: { type: 'string' },
    ratio: { type: 'string' },
    duration: { type: 'integer' },
    generate_audio: { type: 'boolean' },
    priority: { type: 'integer' },
    service_tier: { type: 'string' },
    execution_expires_after: { type: 'integer' },
    created_at: { type: 'integer' },
    updated_at: { type: 'integer' },
  },
};

export const idParam = pathParam('id', 'The task id returned at creation.');
export const filter = (name: string, description: string, schema: object): ParamDoc => ({
  name: `filter.${name}`,
  in: 'query',
  description: `${description} (also \`filter[${name}]\`).`,
  schema,
});
