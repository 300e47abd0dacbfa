import { applyOptionItems, isOptionItem } from './responses.option-items';

describe('option-only input items', () => {
  it('are taken out of input and their settings applied, later over earlier and over the body', () => {
    const body = {
      model: 'm',
      temperature: 1,
      input: [
        { type: 'configuration_update', reasoning: { effort: 'low' }, temperature: 0.2, id: 'cfg_1', sandbox: 'read-only' },
        { role: 'user', content: 'hi' },
        { type: 'configuration_update', reasoning: { effort: 'high' }, input: ['ignored'], stream: true },
      ],
    };
    expect(applyOptionItems(body)).toEqual({
      model: 'm',
      temperature: 0.2,
      reasoning: { effort: 'high' },
      input: [{ role: 'user', content: 'hi' }],
    });
  });

  it('leaves items that carry content, other types and non-array inputs alone', () => {
    expect(isOptionItem({ type: 'configuration_update', content: [{ type: 'input_text', text: 'x' }] })).toBe(false);
    expect(isOptionItem({ type: 'local_shell_call', action: {} })).toBe(false);
    const body = { model: 'm', input: [{ type: 'mystery_update', output: 'x' }] };
    expect(applyOptionItems(body)).toBe(body);
    expect(applyOptionItems({ model: 'm', input: 'hi' })).toEqual({ model: 'm', input: 'hi' });
  });
});
