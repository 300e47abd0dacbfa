import { BINARY_FILE, withFileFields } from '@gateway/http-kit';
import { editRequestSchema } from './images.request.schema';

const imagesResponse = {
  type: 'object',
  required: ['created', 'data'],
  properties: {
    created: { type: 'integer' },
    data: {
      type: 'array',
      items: { type: 'object', properties: { url: { type: 'string' }, b64_json: { type: 'string' }, revised_prompt: { type: 'string' } } },
    },
    usage: { type: 'object' },
  },
};

export const imagesResult = {
  description: 'The images (URLs under /v1/images/files or base64), or `image_generation.*` / `image_edit.*` events when streaming.',
  content: { 'application/json': imagesResponse, 'text/event-stream': { type: 'string' } },
};

/** The same request as a form: text fields as in JSON (numbers and booleans as text), images and mask as file parts. */
export const editForm = withFileFields(editRequestSchema, {
  image: { anyOf: [BINARY_FILE, { type: 'array', items: BINARY_FILE }] },
  'image[]': { type: 'array', items: BINARY_FILE },
  mask: BINARY_FILE,
});
