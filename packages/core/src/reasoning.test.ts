import { checkReasoningEffort, UNSUPPORTED_REASONING } from './reasoning';
import type { ModelSpec } from './catalogue';

const thinker: ModelSpec = { id: 'thinker', kind: 'text', reasoningEfforts: ['low', 'high'], deployments: [] };
const plain: ModelSpec = { id: 'plain', kind: 'text', deployments: [] };

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

  it('refuses any ask on a model that does not reason and an unlisted effort with one code', () => {
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
