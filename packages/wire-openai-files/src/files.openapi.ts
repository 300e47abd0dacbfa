import { BINARY_FILE, cursorPage, type SchemaDoc } from '@gateway/http-kit';
import { FILE_LIMITS } from '@gateway/core';

export const fileObject: SchemaDoc = {
  type: 'object',
  required: ['id', 'object', 'bytes', 'created_at', 'expires_at', 'filename', 'purpose', 'status', 'status_details'],
  properties: {
    id: { type: 'string', description: '`file-…`' },
    object: { const: 'file' },
    bytes: { type: 'integer' },
    created_at: { type: 'integer', description: 'Unix seconds' },
    expires_at: { type: ['integer', 'null'], description: 'Unix seconds; null: kept until deleted' },
    filename: { type: 'string' },
    purpose: { enum: ['batch', 'batch_output', 'user_data'] },
    status: { const: 'processed', description: 'Deprecated by OpenAI; always processed.' },
    status_details: { type: 'null' },
  },
};

export const fileList = cursorPage(fileObject);

/** The form as the `openai` SDK sends it: `expires_after` as `expires_after[anchor]` and `expires_after[seconds]`. */
export const uploadForm: SchemaDoc = {
  type: 'object',
  required: ['file', 'purpose'],
  additionalProperties: false,
  properties: {
    file: { ...BINARY_FILE, description: `At most ${FILE_LIMITS.uploadBytes} bytes (200 MiB).` },
    purpose: { enum: ['batch', 'user_data'] },
    'expires_after[anchor]': { const: 'created_at' },
    'expires_after[seconds]': {
      type: 'string',
      pattern: '^\\d+$',
      description: `${FILE_LIMITS.minExpirySeconds} to ${FILE_LIMITS.maxExpirySeconds}; default 30 days for batch files, none for user_data.`,
    },
  },
};

export const listParams = [
  { name: 'purpose', in: 'query', description: 'Only files of this purpose.', schema: { type: 'string', maxLength: 64 } },
  {
    name: 'limit',
    in: 'query',
    description: `Files per page, 1 to ${FILE_LIMITS.listLimit} (default ${FILE_LIMITS.listLimit}).`,
    schema: { type: 'string', pattern: '^\\d{1,5}$' },
  },
  { name: 'after', in: 'query', description: 'The `last_id` of the previous page.', schema: { type: 'string', maxLength: 128 } },
  { name: 'order', in: 'query', description: 'By creation time; `desc` (default) or `asc`.', schema: { enum: ['asc', 'desc'] } },
] as const;
