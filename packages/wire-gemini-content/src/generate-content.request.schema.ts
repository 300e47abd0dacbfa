import type { FromSchema } from 'json-schema-to-ts';

/**
 * The shape of a Gemini `GenerateContentRequest` (camelCase, as the SDK sends it), with the ranges this gateway
 * enforces. Unknown fields are kept for passthrough; the codec refuses what it cannot honour.
 */
const part = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    thought: { type: 'boolean' },
    thoughtSignature: { type: 'string' },
    inlineData: { type: 'object', required: ['mimeType', 'data'], properties: { mimeType: { type: 'string' }, data: { type: 'string' } } },
    fileData: { type: 'object', required: ['fileUri'], properties: { mimeType: { type: 'string' }, fileUri: { type: 'string' } } },
    functionCall: {
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'string' }, name: { type: 'string' }, args: { type: 'object' } },
    },
    functionResponse: {
      type: 'object',
      required: ['name', 'response'],
      properties: { id: { type: 'string' }, name: { type: 'string' }, response: { type: 'object' } },
    },
  },
} as const;

const content = {
  type: 'object',
  required: ['parts'],
  properties: { role: { enum: ['user', 'model', 'function'] }, parts: { type: 'array', items: part } },
} as const;

const functionDeclaration = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$' },
    description: { type: 'string' },
    parameters: { type: 'object' },
    parametersJsonSchema: { type: 'object' },
  },
} as const;

export const generateContentRequestSchema = {
  type: 'object',
  required: ['contents'],
  properties: {
    contents: { type: 'array', minItems: 1, items: content },
    systemInstruction: {
      type: 'object',
      required: ['parts'],
      properties: { role: { type: 'string' }, parts: { type: 'array', items: part } },
    },
    tools: {
      type: 'array',
      items: { type: 'object', properties: { functionDeclarations: { type: 'array', items: functionDeclaration } } },
    },
    toolConfig: {
      type: 'object',
      properties: {
        functionCallingConfig: {
          type: 'object',
          properties: {
            mode: { enum: ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] },
            allowedFunctionNames: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
    safetySettings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['category', 'threshold'],
        properties: { category: { type: 'string' }, threshold: { type: 'string' }, method: { type: 'string' } },
      },
    },
    cachedContent: { type: 'string' },
    generationConfig: {
      type: 'object',
      properties: {
        temperature: { type: 'number', minimum: 0, maximum: 2 },
        topP: { type: 'number', minimum: 0, maximum: 1 },
        topK: { type: 'integer', minimum: 1 },
        candidateCount: { type: 'integer', minimum: 1 },
        maxOutputTokens: { type: 'integer', minimum: 1 },
        stopSequences: { type: 'array', maxItems: 5, items: { type: 'string', minLength: 1 } },
        seed: { type: 'integer' },
        presencePenalty: { type: 'number', minimum: -2, maximum: 2 },
        frequencyPenalty: { type: 'number', minimum: -2, maximum: 2 },
        responseMimeType: { type: 'string' },
        responseSchema: { type: 'object' },
        responseJsonSchema: { type: 'object' },
        responseModalities: { type: 'array', items: { type: 'string' } },
        thinkingConfig: {
          type: 'object',
          properties: {
            thinkingBudget: { type: 'integer', minimum: -1 },
            thinkingLevel: { enum: ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] },
            includeThoughts: { type: 'boolean' },
          },
        },
      },
    },
  },
} as const;

/**
 * `:countTokens`: either bare `contents` (what @google/genai sends) or a whole `generateContentRequest` (which also
 * counts the system instruction and tools). Exactly one of the two; the router says so when both or neither come.
 */
export const countTokensRequestSchema = {
  type: 'object',
  properties: {
    contents: generateContentRequestSchema.properties.contents,
    generateContentRequest: {
      ...generateContentRequestSchema,
      properties: { ...generateContentRequestSchema.properties, model: { type: 'string' } },
    },
  },
} as const;

/** A GenerateContentRequest as the schema admits it. */
export type GenerateContentRequestBody = FromSchema<typeof generateContentRequestSchema>;
export type CountTokensRequestBody = FromSchema<typeof countTokensRequestSchema>;
export type GeminiContent = GenerateContentRequestBody['contents'][number];
export type GeminiPart = GeminiContent['parts'][number];
