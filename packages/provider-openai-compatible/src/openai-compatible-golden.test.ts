import path from 'node:path';
import {
  ChatStreamMapper,
  convertToChatRequest,
  mapChatCompletion,
  parseSse,
  ProviderConfigError,
  readChatStream,
  chatCompletionSchema,
  checkUpstream,
} from '@gateway/provider-kit';
import { describeGoldenFixtures, sseChunks } from '@gateway/testkit';
import { readCompatibleOptions } from './openai-compatible-options';

describeGoldenFixtures('openai-compatible chat completions', path.join(__dirname, '__fixtures__'), {
  request: (canonical, fx) => convertToChatRequest(canonical, readCompatibleOptions(fx.options).dialect, fx.stream),
  response: (upstream) => mapChatCompletion(checkUpstream(chatCompletionSchema, upstream, 'a completion'), 'requested-model', []),
  stream: (sse) => readChatStream(parseSse(sseChunks(sse)), new ChatStreamMapper({ warnings: [] })),
});

describe('readCompatibleOptions', () => {
  it('defaults suit most servers', () => {
    const s = readCompatibleOptions(undefined);
    expect(s.dialect).toMatchObject({
      maxTokensField: 'max_tokens',
      supportsStreamOptions: true,
      supportsReasoningEffort: false,
      systemRole: 'system',
    });
    expect(s.chatPath).toBe('/chat/completions');
  });

  it.each([
    [{ maxTokensField: 'max_output' }, 'options.maxTokensField'],
    [{ supportsStreamOptions: 'yes' }, 'options.supportsStreamOptions'],
    [{ headers: { 'x-title': 3 } }, 'options.headers.x-title'],
    [{ reasoningFeild: 'reasoning' }, 'options.reasoningFeild'],
  ])('refuses %j naming %s', (options, field) => {
    try {
      readCompatibleOptions(options);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ProviderConfigError);
      expect((e as ProviderConfigError).field).toBe(field);
    }
  });
});
