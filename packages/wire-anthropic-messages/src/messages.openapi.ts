import { queryParam } from '@gateway/http-kit';

export const message = {
  type: 'object',
  required: ['id', 'type', 'role', 'content', 'model'],
  properties: {
    id: { type: 'string' },
    type: { const: 'message' },
    role: { const: 'assistant' },
    content: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } },
    model: { type: 'string' },
    stop_reason: { type: ['string', 'null'] },
    usage: { type: 'object' },
  },
};

/** The headers and query every Messages route documents. */
export const messagesParams = [
  {
    name: 'anthropic-version',
    in: 'header',
    required: true,
    description: 'Any real calendar date `YYYY-MM-DD`; the gateway serves one shape.',
    schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
  { name: 'anthropic-beta', in: 'header', description: 'Accepted and ignored.', schema: { type: 'string' } },
  queryParam('beta', 'Accepted and ignored (`?beta=true` is sent by the SDK for beta calls).'),
] as const;
