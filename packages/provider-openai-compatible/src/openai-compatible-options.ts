import { readOption, rejectUnknownOptions, type ChatDialect } from '@gateway/provider-kit';

/** Every option an openai-compatible provider takes, with the default that fits most servers. */
export const COMPATIBLE_OPTION_NAMES = [
  'maxTokensField',
  'supportsStreamOptions',
  'reasoningField',
  'sendReasoningHistory',
  'supportsReasoningEffort',
  'supportsTopK',
  'supportsImages',
  'systemRole',
  'extraBody',
  'headers',
  'chatPath',
  'requestIdHeader',
] as const;

export interface CompatibleSettings {
  dialect: ChatDialect;
  headers: Record<string, string>;
  chatPath: string;
  requestIdHeaders: string[];
}

/** `options` of a provider entry → dialect and transport settings; a wrong value names its field. */
export function readCompatibleOptions(o: Record<string, unknown> | undefined): CompatibleSettings {
  rejectUnknownOptions(o, COMPATIBLE_OPTION_NAMES);
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
