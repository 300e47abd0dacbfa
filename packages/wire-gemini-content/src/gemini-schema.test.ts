import { geminiSchemaToJsonSchema } from './gemini-schema';

describe('geminiSchemaToJsonSchema', () => {
  it('lower-cases types, recurses and drops Gemini-only keys', () => {
    const out = geminiSchemaToJsonSchema({
      type: 'OBJECT',
      propertyOrdering: ['city', 'days'],
      properties: {
        city: { type: 'STRING', description: 'where', example: 'Paris' },
        days: { type: 'ARRAY', items: { type: 'INTEGER', minimum: 1 }, maxItems: '7' },
        unit: { type: 'STRING', enum: ['c', 'f'], nullable: true },
      },
      required: ['city'],
    });
    expect(out).toEqual({
      type: 'object',
      required: ['city'],
      properties: {
        city: { type: 'string', description: 'where' },
        days: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 7 },
        unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
      },
    });
  });

  it('keeps anyOf and ignores TYPE_UNSPECIFIED and non-objects', () => {
    expect(geminiSchemaToJsonSchema({ anyOf: [{ type: 'NUMBER' }, { type: 'BOOLEAN' }], type: 'TYPE_UNSPECIFIED' })).toEqual({
      anyOf: [{ type: 'number' }, { type: 'boolean' }],
    });
    expect(geminiSchemaToJsonSchema(null)).toEqual({});
    expect(geminiSchemaToJsonSchema([1])).toEqual({});
  });
});
