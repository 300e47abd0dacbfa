import Ajv from 'ajv';
import { sampleFromSchema } from './simulated-arguments';

// the formats the samples use, checked the way a strict client would read them
const ajv = new Ajv({ strict: false })
  .addFormat('date-time', (v: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v)))
  .addFormat('email', /^[^@\s]+@[^@\s]+\.[a-z]+$/)
  .addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

const seeds = ['a', 'weather in Paris', 'b c d', 'tool x', 'zz', 'another seed', 'q', '12345'];

describe('sampleFromSchema', () => {
  const schemas: Array<[string, Record<string, unknown>]> = [
    [
      'required, optional, enums and bounds',
      {
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 3, maxLength: 12 },
          days: { type: 'integer', minimum: 1, maximum: 7 },
          unit: { enum: ['c', 'f'] },
          ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
          note: { type: 'string' },
        },
        required: ['city', 'days', 'unit', 'ratio'],
        additionalProperties: false,
      },
    ],
    [
      'formats, arrays, nullable anyOf and $ref',
      {
        type: 'object',
        $defs: { item: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] } },
        properties: {
          when: { type: 'string', format: 'date-time' },
          email: { type: 'string', format: 'email' },
          items: { type: 'array', items: { $ref: '#/$defs/item' }, minItems: 2, maxItems: 3 },
          maybe: { anyOf: [{ type: 'number', multipleOf: 0.5, minimum: 2, maximum: 3 }, { type: 'null' }] },
        },
        required: ['when', 'email', 'items', 'maybe'],
      },
    ],
  ];

  it.each(schemas)('%s: every sample validates', (_name, schema) => {
    const validate = ajv.compile(schema);
    for (const seed of seeds) {
      const value = sampleFromSchema(schema, seed);
      expect({ value, errors: validate(value) ? null : validate.errors }).toEqual({ value, errors: null });
    }
  });

  it('integers and numbers are whole unless a bound forbids it', () => {
    for (const seed of seeds) {
      expect(Number.isInteger(sampleFromSchema({ type: 'number', minimum: -5, maximum: 50 }, seed))).toBe(true);
      expect(Number.isInteger(sampleFromSchema({ type: 'integer' }, seed))).toBe(true);
    }
    const narrow = sampleFromSchema({ type: 'number', exclusiveMinimum: 0.1, exclusiveMaximum: 0.2 }, 'x') as number;
    expect(narrow > 0.1 && narrow < 0.2).toBe(true);
  });

  it('optional properties appear sometimes, required ones always', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'] };
    const samples = seeds.map((s) => sampleFromSchema(schema, s) as Record<string, unknown>);
    expect(samples.every((v) => typeof v.a === 'string')).toBe(true);
    expect(new Set(samples.map((v) => 'b' in v))).toEqual(new Set([true, false]));
  });

  it("reads Gemini's upper-case type names", () => {
    const value = sampleFromSchema(
      {
        type: 'OBJECT',
        properties: { n: { type: 'INTEGER', minimum: 3, maximum: 3 }, tags: { type: 'ARRAY', items: { type: 'STRING' } } },
        required: ['n', 'tags'],
      },
      'seed',
    );
    expect(value).toEqual({ n: 3, tags: expect.arrayContaining([expect.any(String)]) });
  });
});
