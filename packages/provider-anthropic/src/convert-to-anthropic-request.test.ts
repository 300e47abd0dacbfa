import type { TextRequest } from '@gateway/core';
import { convertToAnthropicRequest } from './convert-to-anthropic-request';

const req = (extra: Partial<TextRequest>): TextRequest => ({
  model: 'claude',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  ...extra,
});
const convert = (r: TextRequest) => convertToAnthropicRequest(r, { defaultMaxTokens: 4096 }, false);

describe('thinking budget vs max_tokens', () => {
  it.each([
    // [maxOutputTokens, budgetTokens] → [max_tokens, budget_tokens or undefined]
    [undefined, 2000, 6096, 2000],
    [undefined, 500, 5120, 1024],
    [8000, 2000, 8000, 2000],
    [8000, 500, 8000, 1024],
    [5000, 8000, 5000, 2500],
    [1500, 8000, 1500, undefined],
  ])('maxOutputTokens %s, budget %s → max_tokens %s, budget %s', (maxOutputTokens, budgetTokens, maxTokens, budget) => {
    const { body, warnings } = convert(req({ maxOutputTokens, reasoning: { budgetTokens } }));
    expect(body.max_tokens).toBe(maxTokens);
    expect((body.thinking as { budget_tokens?: number } | undefined)?.budget_tokens).toBe(budget);
    if (budget !== undefined) expect(body.max_tokens as number).toBeGreaterThan(budget);
    expect(warnings.length > 0).toBe(budget !== budgetTokens);
  });

  it('effort none means no thinking at all', () => {
    const { body, warnings } = convert(req({ reasoning: { effort: 'none' }, temperature: 0.2 }));
    expect(body).not.toHaveProperty('thinking');
    expect(body).toMatchObject({ max_tokens: 4096, temperature: 0.2 });
    expect(warnings).toEqual([]);
  });
});
