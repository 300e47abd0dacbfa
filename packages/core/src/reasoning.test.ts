import { checkReasoningEffort, mayReason, UNSUPPORTED_REASONING } from './reasoning';
import type { ModelSpec } from './catalogue';

const thinker: ModelSpec = { id: 'thinker', kind: 'text', reasoningEfforts: ['low', 'high'], deployments: [] };
const plain: ModelSpec = { id: 'plain', kind: 'text', reasoningEfforts: [], deployments: [] };
const undeclared: ModelSpec = { id: 'open', kind: 'text', deployments: [] };

function refusal(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal');
}

describe('checkReasoningEffort', () => {
  it('accepts an effort the model lists, and a bare ask on a reasoning model', () => {
    expect(checkReasoningEffort(thinker, { effort: 'low', param: 'reasoning_effort' })).toBe('low');
    expect(checkReasoningEffort(thinker, { param: 'thinking' })).toBeUndefined();
  });

  it('forwards any ask on a model whose catalogue entry declares no efforts', () => {
    expect(checkReasoningEffort(undeclared, { effort: 'max', param: 'output_config.effort' })).toBe('max');
    expect(checkReasoningEffort(undeclared, { param: 'thinking' })).toBeUndefined();
    expect([mayReason(undeclared), mayReason(thinker), mayReason(plain)]).toEqual([true, true, false]);
  });

  it('refuses any ask on a model declared not to reason and an unlisted effort with one code', () => {
    expect(refusal(() => checkReasoningEffort(plain, { param: 'reasoning.summary', omit: 'reasoning' }))).toMatchObject({
      code: UNSUPPORTED_REASONING,
      param: 'reasoning.summary',
      message: 'Model plain is not a reasoning model; omit "reasoning".',
    });
    expect(
      refusal(() => checkReasoningEffort(thinker, { effort: 'medium', param: 'thinkingLevel', spell: (e) => e.toUpperCase() })),
    ).toMatchObject({ code: UNSUPPORTED_REASONING, message: '"thinkingLevel" "MEDIUM" is not supported by thinker; allowed: LOW, HIGH.' });
  });
});
