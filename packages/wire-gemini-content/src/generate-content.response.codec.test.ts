import type { TextResult } from '@gateway/core';
import { encodeGenerateContent, encodeUsageMetadata } from './generate-content.response.codec';

const who = { responseId: 'r1', modelVersion: 'sim-chat' };
const result: TextResult = {
  model: 'sim-chat',
  content: [
    { type: 'reasoning', text: 'hmm', signature: 'sig' },
    { type: 'text', text: 'hello' },
    { type: 'tool-call', id: 'c1', name: 'f', arguments: '{"a":1}' },
  ],
  finishReason: 'tool-calls',
  usage: { inputTokens: 4, outputTokens: 9, totalTokens: 13, reasoningTokens: 3, cachedInputTokens: 0 },
  warnings: [],
};

describe('generateContent response codec', () => {
  it('encodes candidates, usage with thoughts, modelVersion and responseId', () => {
    expect(encodeGenerateContent(who, result, true)).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'hmm', thought: true, thoughtSignature: 'sig' },
              { text: 'hello' },
              { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
          safetyRatings: [],
        },
      ],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6, totalTokenCount: 13, thoughtsTokenCount: 3 },
      modelVersion: 'sim-chat',
      responseId: 'r1',
    });
  });

  it('leaves thoughts out unless asked, but still counts them', () => {
    const out = encodeGenerateContent(who, result, false);
    expect(out.candidates[0]!.content.parts).toEqual([{ text: 'hello' }, { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } }]);
    expect(out.usageMetadata?.thoughtsTokenCount).toBe(3);
  });

  it.each([
    ['stop', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['content-filter', 'SAFETY'],
    ['other', 'OTHER'],
  ] as const)('finish %s → %s', (f, g) => {
    expect(encodeGenerateContent(who, { ...result, finishReason: f }, false).candidates[0]!.finishReason).toBe(g);
  });

  it('reports cached prompt tokens and omits zero thoughts', () => {
    expect(encodeUsageMetadata({ inputTokens: 10, outputTokens: 2, totalTokens: 12, cachedInputTokens: 6 })).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 2,
      totalTokenCount: 12,
      cachedContentTokenCount: 6,
    });
  });
});
