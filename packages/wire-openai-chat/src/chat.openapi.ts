/** Loose: enough to read the documented shape, not a contract on every field. */
export const chatCompletion = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  properties: {
    id: { type: 'string' },
    object: { const: 'chat.completion' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        properties: { index: { type: 'integer' }, message: { type: 'object' }, finish_reason: { type: ['string', 'null'] } },
      },
    },
    usage: { type: 'object' },
  },
};
