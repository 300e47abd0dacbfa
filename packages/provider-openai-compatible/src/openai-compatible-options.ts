import { readOption, rejectUnknownOptions, type ChatDialect } from '@gateway/provider-kit';

/** Every option an openai-compatible provider takes; the defaults (below) fit most servers. */
export const openAiCompatibleOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxTokensField: { enum: ['max_tokens', 'max_completion_tokens'] },
    supportsStreamOptions: { type: 'boolean' },
    reasoningField: { enum: ['reasoning_content', 'reasoning'] },
    sendReasoningHistory: { type: 'boolean' },
    supportsReasoningEffort: { type: 'boolean' },
    supportsTopK: { type: 'boolean' },
    supportsImages: { type: 'boolean' },
    systemRole: { enum: ['system', 'developer'] },
    /** merged into every request body under the computed fields */
    extraBody: { type: 'object' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    chatPath: { type: 'string', minLength: 1 },
    requestIdHeader: { type: 'string', minLength: 1 },
  },
} as const;

export interface CompatibleSettings {
  dialect: ChatDialect;
  headers: Record<string, string>;
  chatPath: string;
  requestIdHeaders: string[];
}

/** `options` of a provider entry → dialect and transport settings; a wrong value names its field. */
export function readCompatibleOptions(o: Record<string, unknown> | undefined): CompatibleSettings {
  rejectUnknownOptions(o, Object.keys(openAiCompatibleOptionsSchema.properties));
  const chatPath = readOption.string(o, 'chatPath') ?? '/chat/completions';
  const requestIdHeader = readOption.string(o, 'requestIdHeader');
  return {
    dialect: {
      maxTokensField: readOption.oneOf(o, 'maxTokensField', ['max_tokens', 'max_completion_tokens'] as const, 'max_tokens'),
      supportsStreamOptions: readOption.boolean(o, 'supportsStreamOptions', true),
      reasoningField: readOption.oneOf(o, 'reasoningField', ['reasoning_content', 'reasoning'] as const, 'reasoning_content'),
      sendReasoningHistory: readOption.boolean(o, 'sendReasoningHistory', false),
      supportsReasoningEffort: readOption.boolean(o, 'supportsReasoningEffort', false),
      supportsTopK: readOption.boolean(o, 'supportsTopK', false),
      supportsImages: readOption.boolean(o, 'supportsImages', true),
      systemRole: readOption.oneOf(o, 'systemRole', ['system', 'developer'] as const, 'system'),
      extraBody: readOption.object(o, 'extraBody'),
    },
    headers: readOption.headers(o, 'headers') ?? {},
    chatPath: chatPath.startsWith('/') ? chatPath : `/${chatPath}`,
    requestIdHeaders: requestIdHeader ? [requestIdHeader.toLowerCase()] : ['x-request-id'],
  };
}
