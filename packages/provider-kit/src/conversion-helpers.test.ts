import type { TextRequest } from '@gateway/core';
import { unreadFields, usageOf } from './conversion-helpers';

const req = (native: TextRequest['native']): TextRequest => ({ model: 'm', messages: [{ role: 'user', content: [] }], native });
const body = { model: 'client', messages: [], logit_bias: { '11': 1 }, next_month: true };

describe('unreadFields (the native body fields the canonical request has no place for)', () => {
  const chat = req({ dialect: 'openai-chat', body, unread: ['logit_bias', 'next_month'] });

  it('hands them, as written, to an upstream of the same dialect', () => {
    expect(unreadFields(chat, 'openai-chat')).toEqual({ fields: { logit_bias: { '11': 1 }, next_month: true }, warnings: [] });
  });

  it('names each in a warning for an upstream of another dialect, and sends none', () => {
    const { fields, warnings } = unreadFields(chat, 'anthropic-messages');
    expect(fields).toEqual({});
    expect(warnings).toMatchObject([{ setting: 'logit_bias' }, { setting: 'next_month' }]);
  });

  it('neither sends nor names a field the gateway removed from the body', () => {
    const dropped = req({ dialect: 'openai-responses', body: { model: 'c' }, unread: ['conversation'] });
    expect(unreadFields(dropped, 'openai-chat')).toEqual({ fields: {}, warnings: [] });
    expect(unreadFields(req(undefined), 'openai-chat')).toEqual({ fields: {}, warnings: [] });
  });
});

describe('usageOf', () => {
  it("takes the upstream's total when it sends one, else input + output", () => {
    expect(usageOf({ input: 3, output: 4, total: 9 }).totalTokens).toBe(9);
    expect(usageOf({ input: 3, output: 4 })).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });

  it('carries cached and reasoning counts only when given, zero included', () => {
    expect(usageOf({ input: 3, output: 4, cached: 0, reasoning: 2 })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
      cachedInputTokens: 0,
      reasoningTokens: 2,
    });
  });
});
