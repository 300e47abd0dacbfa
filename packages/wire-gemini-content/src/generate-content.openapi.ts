import { pathParam } from '@gateway/http-kit';

export const generateContentResponse = {
  type: 'object',
  properties: {
    candidates: {
      type: 'array',
      items: { type: 'object', properties: { content: { type: 'object' }, finishReason: { type: 'string' }, index: { type: 'integer' } } },
    },
    usageMetadata: { type: 'object' },
    modelVersion: { type: 'string' },
    responseId: { type: 'string' },
  },
};

export const modelParam = pathParam('model', "A text model id in the key's group, without the `models/` prefix.");
