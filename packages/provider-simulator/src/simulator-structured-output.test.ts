import Ajv from 'ajv';
import type { TextRequest, TextStreamPart } from '@gateway/core';
import { SimulatorTextModel } from './simulator-text-model';

const model = new SimulatorTextModel();
const ctx = { signal: new AbortController().signal } as Parameters<SimulatorTextModel['stream']>[1];
const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 120 }, mood: { enum: ['ok', 'great'] } },
  required: ['name', 'age', 'mood'],
  additionalProperties: false,
};
const ask = (responseFormat: TextRequest['responseFormat']): TextRequest => ({
  model: 'sim-chat',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe a person' }] }],
  responseFormat,
});

describe('simulator structured output', () => {
  it('answers with JSON that validates against the schema, streamed in pieces that concatenate to it', async () => {
    const validate = new Ajv({ strict: false }).compile(schema);
    const result = await model.generate(ask({ type: 'json', schema, name: 'person' }));
    const text = result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(validate(JSON.parse(text))).toBe(true);

    const deltas: string[] = [];
    for await (const part of model.stream(ask({ type: 'json', schema, name: 'person' }), ctx) as AsyncIterable<TextStreamPart>) {
      if (part.type === 'text-delta') deltas.push(part.delta);
    }
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.join('')).toBe(text);
  });

  it('plain JSON mode answers with a JSON object', async () => {
    const result = await model.generate(ask({ type: 'json' }));
    const text = result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(JSON.parse(text)).toEqual({ answer: expect.any(String) });
  });
});
