import {
  type HostedTool,
  checkReasoningEffort,
  mayReason,
  invalid,
  type ModelSpec,
  type ReasoningEffort,
  type TextRequest,
  type ToolChoice,
  type ToolDefinition,
} from '@gateway/core';
import { decodeContents, decodeSystemInstruction } from './generate-content.contents.codec';
import { geminiSchemaToJsonSchema } from './gemini-schema';
import type { GenerateContentRequestBody } from './generate-content.request.schema';

/** The dialect of this format's bodies (native-request.ts) and of its hosted tools (hosted-tools.ts). */
const DIALECT = 'gemini-content';

type Body = GenerateContentRequestBody;
type GenerationConfig = NonNullable<Body['generationConfig']>;

export interface DecodedGenerateContent {
  request: TextRequest;
  /** whether thought parts go back to the caller (`thinkingConfig.includeThoughts`) */
  includeThoughts: boolean;
}

/**
 * Fields with a canonical meaning; every other top-level field (safetySettings, cachedContent...) travels in
 * `extra`, which a Gemini upstream spreads into its body unchanged. Other generationConfig keys are ignored.
 */
const KNOWN = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);

/** Tools Google runs itself (core/hosted-tools.ts decides what other upstreams get). */
const HOSTED = new Set(['googleSearch', 'googleSearchRetrieval', 'urlContext', 'codeExecution']);

function decodeTools(tools: Body['tools']): { tools?: ToolDefinition[]; hosted: HostedTool[] } {
  const hosted: HostedTool[] = [];
  if (!tools) return { hosted };
  const out: ToolDefinition[] = [];
  tools.forEach((t, i) => {
    for (const key of Object.keys(t)) {
      if (key === 'functionDeclarations') continue;
      if (HOSTED.has(key)) {
        hosted.push({
          format: DIALECT,
          type: key,
          param: `tools[${i}].${key}`,
          definition: { [key]: (t as Record<string, unknown>)[key] },
        });
        continue;
      }
      throw invalid(
        'unsupported_tool',
        `Tool ${JSON.stringify(key)} is not supported; only functionDeclarations, googleSearch, urlContext and codeExecution are.`,
        `tools[${i}].${key}`,
      );
    }
    for (const f of t.functionDeclarations ?? []) {
      const parameters =
        f.parametersJsonSchema ?? (f.parameters ? geminiSchemaToJsonSchema(f.parameters) : { type: 'object', properties: {} });
      out.push({ name: f.name, description: f.description, parameters });
    }
  });
  return { tools: out.length ? out : undefined, hosted };
}

/** ANY with one allowed name forces that function; with several, the declared tools are narrowed to them. */
function decodeToolConfig(
  config: Body['toolConfig'],
  tools: ToolDefinition[] | undefined,
): { tools?: ToolDefinition[]; toolChoice?: ToolChoice } {
  const fc = config?.functionCallingConfig;
  const mode = fc?.mode ?? 'AUTO';
  const allowed = fc?.allowedFunctionNames;
  for (const name of allowed ?? []) {
    if (!tools?.some((t) => t.name === name)) {
      throw invalid(
        'unknown_tool',
        `"allowedFunctionNames" names ${JSON.stringify(name)}, which is not among the function declarations.`,
        'toolConfig.functionCallingConfig.allowedFunctionNames',
      );
    }
  }
  if (mode === 'NONE') return { tools, toolChoice: 'none' };
  const narrowed = allowed?.length ? tools?.filter((t) => allowed.includes(t.name)) : tools;
  if (mode === 'ANY') {
    if (!narrowed?.length)
      throw invalid(
        'tools_required',
        'Function calling mode ANY needs at least one function declaration.',
        'toolConfig.functionCallingConfig.mode',
      );
    return { tools: narrowed, toolChoice: allowed?.length === 1 ? { type: 'tool', name: allowed[0]! } : 'required' };
  }
  return { tools: narrowed, toolChoice: fc ? 'auto' : undefined };
}

function decodeThinking(
  tc: GenerationConfig['thinkingConfig'],
  model: ModelSpec,
): { reasoning: TextRequest['reasoning']; includeThoughts: boolean } {
  if (!tc) return { reasoning: undefined, includeThoughts: false };
  const level = tc.thinkingLevel && tc.thinkingLevel !== 'THINKING_LEVEL_UNSPECIFIED' ? String(tc.thinkingLevel).toLowerCase() : undefined;
  const budget = tc.thinkingBudget;
  if (level !== undefined && budget !== undefined) {
    throw invalid(
      'conflicting_thinking_config',
      'Set either "thinkingBudget" or "thinkingLevel", not both.',
      'generationConfig.thinkingConfig',
    );
  }
  const thinks = mayReason(model);
  const wantsThinking = level !== undefined || (budget !== undefined && budget !== 0);
  if (wantsThinking && !thinks) checkReasoningEffort(model, { param: 'generationConfig.thinkingConfig', omit: 'thinkingConfig' });
  if (level !== undefined) {
    checkReasoningEffort(model, { effort: level, param: 'generationConfig.thinkingConfig.thinkingLevel', spell: (e) => e.toUpperCase() });
  }
  if (budget === 0) return { reasoning: thinks ? { effort: 'none' } : undefined, includeThoughts: false };
  if (!thinks) return { reasoning: undefined, includeThoughts: false };
  const includeThoughts = tc.includeThoughts === true;
  // thinkingBudget -1 is "dynamic": the model decides, which is the canonical default.
  return {
    reasoning: {
      ...(level ? { effort: level as ReasoningEffort } : {}),
      ...(budget !== undefined && budget > 0 ? { budgetTokens: budget } : {}),
      includeThoughts,
    },
    includeThoughts,
  };
}

function decodeResponseFormat(g: GenerationConfig): TextRequest['responseFormat'] {
  const mime = g.responseMimeType;
  const schema = g.responseJsonSchema ?? (g.responseSchema ? geminiSchemaToJsonSchema(g.responseSchema) : undefined);
  if (mime !== undefined && mime !== 'text/plain' && mime !== 'application/json') {
    throw invalid(
      'unsupported_mime_type',
      `"responseMimeType" ${JSON.stringify(mime)} is not supported; use text/plain or application/json.`,
      'generationConfig.responseMimeType',
    );
  }
  if (schema && mime !== 'application/json') {
    throw invalid(
      'schema_requires_json',
      'A response schema needs "responseMimeType": "application/json".',
      'generationConfig.responseMimeType',
    );
  }
  return mime === 'application/json' ? { type: 'json', ...(schema ? { schema } : {}) } : undefined;
}

/** Rules the schema cannot express, all about what a text model can produce. */
function refuseOutputs(g: GenerationConfig, model: ModelSpec): void {
  if (g.candidateCount !== undefined && g.candidateCount > 1) {
    throw invalid(
      'unsupported_candidate_count',
      '"candidateCount" must be 1: each request yields one candidate.',
      'generationConfig.candidateCount',
    );
  }
  const modalities = g.responseModalities ?? [];
  const other = modalities.find((m) => m.toUpperCase() !== 'TEXT');
  if (other)
    throw invalid(
      'unsupported_modality',
      `Model ${model.id} produces text only; "responseModalities" may only contain "TEXT".`,
      'generationConfig.responseModalities',
    );
  for (const field of ['speechConfig', 'imageConfig']) {
    if (g[field] != null)
      throw invalid('unsupported_modality', `Model ${model.id} produces text only; omit "${field}".`, `generationConfig.${field}`);
  }
}

/** GenerateContentRequest (already schema-checked) → canonical TextRequest for the model named in the path. */
export function decodeGenerateContent(body: Body, model: ModelSpec): DecodedGenerateContent {
  const g: GenerationConfig = body.generationConfig ?? {};
  refuseOutputs(g, model);
  const declared = decodeTools(body.tools);
  const { tools, toolChoice } = decodeToolConfig(body.toolConfig, declared.tools);
  const { reasoning, includeThoughts } = decodeThinking(g.thinkingConfig, model);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!KNOWN.has(k)) extra[k] = v;

  return {
    includeThoughts,
    request: {
      model: model.id,
      system: decodeSystemInstruction(body.systemInstruction),
      messages: decodeContents(body.contents),
      tools,
      toolChoice,
      maxOutputTokens: g.maxOutputTokens,
      temperature: g.temperature,
      topP: g.topP,
      topK: g.topK,
      presencePenalty: g.presencePenalty,
      frequencyPenalty: g.frequencyPenalty,
      stopSequences: g.stopSequences,
      seed: g.seed,
      responseFormat: decodeResponseFormat(g),
      reasoning,
      extra: Object.keys(extra).length ? extra : undefined,
      hostedTools: declared.hosted.length ? declared.hosted : undefined,
      // a Google upstream sends this as written (native-request.ts); the fields above serve everything else
      native: { dialect: DIALECT, body: body as unknown as Record<string, unknown> },
    },
  };
}
