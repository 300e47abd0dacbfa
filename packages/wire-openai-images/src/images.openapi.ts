import { BINARY_FILE, withFileFields, type RouteDoc } from '@gateway/http-kit';
import { editRequestSchema, generationRequestSchema } from './images.request.schema';

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

const result = {
  description: 'The images (URLs under /v1/images/files or base64), or `image_generation.*` / `image_edit.*` events when streaming.',
  content: { 'application/json': imagesResponse, 'text/event-stream': { type: 'string' } },
};

/** The same request as a form: text fields as in JSON (numbers and booleans as text), images and mask as file parts. */
const editForm = withFileFields(editRequestSchema, {
  image: { anyOf: [BINARY_FILE, { type: 'array', items: BINARY_FILE }] },
  'image[]': { type: 'array', items: BINARY_FILE },
  mask: BINARY_FILE,
});

export const imagesRoutes: RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/images/generations',
    summary: 'Generate images',
    format: 'openai-images',
    auth: { kind: 'api-key', role: 'member' },
    body: { content: { 'application/json': generationRequestSchema } },
    response: result,
    errors: 'openai',
  },
  {
    method: 'post',
    path: '/v1/images/edits',
    summary: 'Edit images',
    description: 'JSON (images as https URLs, data URLs or base64) or multipart/form-data (images as file parts).',
    format: 'openai-images',
    auth: { kind: 'api-key', role: 'member' },
    body: { content: { 'application/json': editRequestSchema, 'multipart/form-data': editForm } },
    response: result,
    errors: 'openai',
  },
  {
    method: 'get',
    path: '/v1/images/files/{name}',
    summary: 'Download a generated image',
    description: 'The URL returned in `data[].url`; it expires.',
    format: 'openai-images',
    auth: { kind: 'none', why: 'The unguessable name is the credential, so the URL works in an <img> tag.' },
    params: [{ name: 'name', in: 'path', required: true, description: 'The file name from `data[].url`.', schema: { type: 'string' } }],
    response: { description: 'The image bytes.', content: { 'image/*': { type: 'string', contentMediaType: 'image/*' } } },
    errors: 'openai',
  },
];
