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

export const modelParam = {
  name: 'model',
  in: 'path',
  required: true,
  description: "A text model id in the key's group, without the `models/` prefix.",
  schema: { type: 'string' },
} as const;
