import { invalid, type McpServerChange, type McpServerFields } from '@gateway/core';
import { fieldRefusals, jsonRequestBody, type FieldRefusal } from '@gateway/http-kit';

/**
 * The bodies of POST and PATCH /admin/mcp/servers, declared once: the schema /openapi.json shows is the one
 * mountRoutes checks before the handler, unknown fields refused, each refusal with the code and wording of its field.
 * What a schema cannot say (the id and header name rules, `env:` values, the URL rules) the core checks.
 */
const fields = {
  url: { type: 'string', description: 'A Streamable HTTP URL, under the webhook URL rules (https, public; WEBHOOK_ALLOWED_HOSTS).' },
  headers: {
    type: 'object',
    additionalProperties: { type: ['string', 'null'], minLength: 1, maxLength: 8192, pattern: '^[^\\r\\n\\u0000]*$' },
    description:
      'Header name to value, sent on every request to the server (its credentials): stored encrypted, never shown again. In a PATCH, null removes one and unnamed headers are kept.',
  },
  pricePerCall: { type: ['number', 'null'], minimum: 0, exclusiveMaximum: 1e14, description: 'Credits per tool call; null = free.' },
};

const fixed =
  (code: string, message: string, param: string): FieldRefusal =>
  () =>
    invalid(code, message, param);

/** `headers`: an object, each value a one-line string or null; a bad value is named by its header. */
const headers: FieldRefusal = (f) => {
  if (f.at === 'headers') return invalid('invalid_headers', '"headers" must be an object of header name to value.', 'headers');
  const param = `headers.${f.at.slice('headers.'.length, 'headers.'.length + 128)}`;
  return invalid('invalid_header', `"${param}" must be a string of 1 to 8192 characters on one line, or null to remove it.`, param);
};

const REFUSALS: Readonly<Record<string, FieldRefusal>> = {
  id: fixed('invalid_id', '"id" is required: the server id, the prefix of its tool names.', 'id'),
  url: fixed('invalid_webhook_url', '"url" must be a URL of at most 2048 characters.', 'url'),
  pricePerCall: fixed('invalid_price', '"pricePerCall" must be a number of credits from 0, or null for free.', 'pricePerCall'),
  headers,
};

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  ...(required.length ? { required } : {}),
  properties,
});

export const registerMcpServerBody = jsonRequestBody<McpServerFields>(object({ id: { type: 'string' }, ...fields }, ['id', 'url']), {
  refuse: fieldRefusals(REFUSALS, ['id', ...Object.keys(fields)]),
});

export const changeMcpServerBody = jsonRequestBody<McpServerChange>(object(fields), {
  refuse: fieldRefusals(REFUSALS, Object.keys(fields)),
});
