import type { ModelSpec } from '@gateway/core';
import { decodeGenerateContent as decodeChecked } from './generate-content.request.codec';
import type { GenerateContentRequestBody } from './generate-content.request.schema';
import { refusal } from '@gateway/testkit';

const thinker: ModelSpec = {
  id: 'sim-chat',
  kind: 'text',
  deployments: [],
  reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high'],
};
const plain: ModelSpec = { id: 'plain', kind: 'text', reasoningEfforts: [], deployments: [] };
const undeclared: ModelSpec = { id: 'open', kind: 'text', deployments: [] };
// Bodies here are written loosely (as JSON arrives), standing in for ones the schema accepted.
const decodeGenerateContent = (body: object, model: ModelSpec) => decodeChecked(body as GenerateContentRequestBody, model);
const base = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
const weather = {
  name: 'get_weather',
  description: 'd',
  parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
};

describe('decodeGenerateContent', () => {
  it('maps generationConfig, systemInstruction and keeps other fields in extra', () => {
    const { request, includeThoughts } = decodeGenerateContent(
      {
        ...base,
        systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        generationConfig: {
          temperature: 1.5,
          topP: 0.5,
          topK: 40,
          candidateCount: 1,
          maxOutputTokens: 50,
          stopSequences: ['END'],
          seed: 7,
          presencePenalty: 0.1,
          responseLogprobs: false,
        },
      },
      thinker,
    );
    expect(request).toMatchObject({
      model: 'sim-chat',
      system: 'Be brief.',
      temperature: 1.5,
      topP: 0.5,
      topK: 40,
      maxOutputTokens: 50,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.1,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(request.extra).toEqual({ safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] });
    expect(includeThoughts).toBe(false);
  });

  it('reads inline and file images and refuses other media', () => {
    const img = (part: object) => decodeGenerateContent({ contents: [{ role: 'user', parts: [{ text: 'see' }, part] }] }, thinker);
    expect(img({ inlineData: { mimeType: 'image/png', data: 'AAA' } }).request.messages[0]!.content[1]).toEqual({
      type: 'image',
      mediaType: 'image/png',
      data: 'AAA',
    });
    expect(img({ fileData: { mimeType: 'image/jpeg', fileUri: 'https://x/y.jpg' } }).request.messages[0]!.content[1]).toEqual({
      type: 'image',
      url: 'https://x/y.jpg',
      mediaType: 'image/jpeg',
    });
    expect(refusal(() => img({ inlineData: { mimeType: 'audio/wav', data: 'AAA' } }))).toMatchObject({
      code: 'unsupported_mime_type',
      param: 'contents[0].parts[1].inlineData.mimeType',
    });
    expect(refusal(() => img({ executableCode: { code: 'x' } }))).toMatchObject({
      code: 'unsupported_part',
      param: 'contents[0].parts[1].executableCode',
    });
  });

  it('pairs functionCall and functionResponse by name when ids are absent', () => {
    const { request } = decodeGenerateContent(
      {
        contents: [
          { role: 'user', parts: [{ text: 'weather?' }] },
          {
            role: 'model',
            parts: [
              { text: 'thinking', thought: true, thoughtSignature: 'sig' },
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
            ],
          },
          { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 20 } } }] },
        ],
      },
      thinker,
    );
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking', signature: 'sig' },
          { type: 'tool-call', id: 'get_weather_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'get_weather_0', name: 'get_weather', content: [{ type: 'text', text: '{"temp":20}' }] },
        ],
      },
    ]);
  });

  it('keeps explicit call ids', () => {
    const { request } = decodeGenerateContent(
      {
        contents: [
          { role: 'model', parts: [{ functionCall: { id: 'abc', name: 'f', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { id: 'abc', name: 'f', response: {} } }] },
        ],
      },
      thinker,
    );
    expect(request.messages.map((m) => (m.content[0] as any).id ?? (m.content[0] as any).toolCallId)).toEqual(['abc', 'abc']);
  });

  it('converts function declarations and maps every calling mode', () => {
    const tools = [{ functionDeclarations: [weather, { name: 'other', parametersJsonSchema: { type: 'object' } }] }];
    const decode = (functionCallingConfig?: object) =>
      decodeGenerateContent({ ...base, tools, ...(functionCallingConfig ? { toolConfig: { functionCallingConfig } } : {}) }, thinker)
        .request;
    expect(decode().tools).toEqual([
      {
        name: 'get_weather',
        description: 'd',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      { name: 'other', description: undefined, parameters: { type: 'object' } },
    ]);
    expect(decode().toolChoice).toBeUndefined();
    expect(decode({ mode: 'AUTO' }).toolChoice).toBe('auto');
    expect(decode({ mode: 'NONE' }).toolChoice).toBe('none');
    expect(decode({ mode: 'ANY' }).toolChoice).toBe('required');
    expect(decode({ mode: 'ANY', allowedFunctionNames: ['other'] }).toolChoice).toEqual({ type: 'tool', name: 'other' });
    expect(decode({ mode: 'ANY', allowedFunctionNames: ['other', 'get_weather'] }).tools).toHaveLength(2);
    expect(refusal(() => decode({ mode: 'ANY', allowedFunctionNames: ['nope'] }))).toMatchObject({ code: 'unknown_tool' });
    expect(
      refusal(() => decodeGenerateContent({ ...base, toolConfig: { functionCallingConfig: { mode: 'ANY' } } }, thinker)),
    ).toMatchObject({ code: 'tools_required' });
  });

  it('keeps Google-hosted tools as hosted tools and refuses unknown tool kinds', () => {
    const decoded = decodeGenerateContent({ ...base, tools: [{ googleSearch: {} }, { codeExecution: {} }] }, thinker).request;
    expect(decoded.hostedTools).toEqual([
      { format: 'gemini-content', type: 'googleSearch', param: 'tools[0].googleSearch', definition: { googleSearch: {} } },
      { format: 'gemini-content', type: 'codeExecution', param: 'tools[1].codeExecution', definition: { codeExecution: {} } },
    ]);
    expect(refusal(() => decodeGenerateContent({ ...base, tools: [{ fileSearch: {} }] as never }, thinker))).toMatchObject({
      code: 'unsupported_tool',
      param: 'tools[0].fileSearch',
    });
  });

  it('maps thinkingConfig to canonical reasoning', () => {
    const think = (thinkingConfig: object, model = thinker) =>
      decodeGenerateContent({ ...base, generationConfig: { thinkingConfig } }, model);
    expect(think({ thinkingBudget: 512, includeThoughts: true })).toEqual(
      expect.objectContaining({
        includeThoughts: true,
        request: expect.objectContaining({ reasoning: { budgetTokens: 512, includeThoughts: true } }),
      }),
    );
    expect(think({ thinkingLevel: 'LOW' }).request.reasoning).toEqual({ effort: 'low', includeThoughts: false });
    expect(think({ thinkingBudget: -1 }).request.reasoning).toEqual({ includeThoughts: false });
    expect(think({ thinkingBudget: 0 }).request.reasoning).toEqual({ effort: 'none' });
    expect(think({ thinkingBudget: 0 }, plain).request.reasoning).toBeUndefined();
    expect(refusal(() => think({ thinkingBudget: 10, thinkingLevel: 'LOW' }))).toMatchObject({ code: 'conflicting_thinking_config' });
    expect(refusal(() => think({ thinkingBudget: 10 }, plain))).toMatchObject({ code: 'unsupported_reasoning_effort' });
    // a model whose catalogue entry declares no efforts: the caller's thinkingConfig goes to the upstream as asked
    expect(think({ thinkingLevel: 'HIGH', includeThoughts: true }, undeclared).request.reasoning).toEqual({
      effort: 'high',
      includeThoughts: true,
    });
    expect(think({ thinkingBudget: 2048 }, undeclared).request.reasoning).toEqual({ budgetTokens: 2048, includeThoughts: false });
    expect(think({ thinkingBudget: 0 }, undeclared).request.reasoning).toEqual({ effort: 'none' });
    expect(refusal(() => think({ thinkingLevel: 'HIGH' }, { ...thinker, reasoningEfforts: ['low'] }))).toMatchObject({
      code: 'unsupported_reasoning_effort',
    });
  });

  it('maps JSON output with a Gemini or JSON schema and refuses what a text model cannot do', () => {
    const gen = (generationConfig: object) => decodeGenerateContent({ ...base, generationConfig }, thinker).request;
    expect(gen({ responseMimeType: 'application/json', responseSchema: { type: 'OBJECT' } }).responseFormat).toEqual({
      type: 'json',
      schema: { type: 'object' },
    });
    expect(gen({ responseMimeType: 'application/json', responseJsonSchema: { type: 'array' } }).responseFormat).toEqual({
      type: 'json',
      schema: { type: 'array' },
    });
    expect(gen({ responseMimeType: 'text/plain' }).responseFormat).toBeUndefined();
    expect(refusal(() => gen({ responseSchema: { type: 'OBJECT' } }))).toMatchObject({ code: 'schema_requires_json' });
    expect(refusal(() => gen({ responseMimeType: 'text/x.enum' }))).toMatchObject({ code: 'unsupported_mime_type' });
    expect(refusal(() => gen({ candidateCount: 2 }))).toMatchObject({
      code: 'unsupported_candidate_count',
      param: 'generationConfig.candidateCount',
    });
    expect(refusal(() => gen({ responseModalities: ['TEXT', 'IMAGE'] }))).toMatchObject({ code: 'unsupported_modality' });
    expect(refusal(() => gen({ speechConfig: {} }))).toMatchObject({ param: 'generationConfig.speechConfig' });
  });
});
