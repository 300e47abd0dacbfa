import { type ReasoningEffort, type TextRequest, type ToolChoice, unsupportedSetting, type Warning } from '@gateway/provider-kit';
import { unreadFields } from '@gateway/provider-kit';
import { convertToGoogleContents } from './convert-to-google-contents';

/** The inbound format whose unknown fields may pass through unchanged to this upstream. */
export const GOOGLE_FORMAT = 'gemini-content';

export interface GoogleRequestOptions {
  /** `json-schema`: parametersJsonSchema / responseJsonSchema (full JSON Schema); `openapi`: parameters / responseSchema */
  schemaDialect: 'json-schema' | 'openapi';
  /** Gemini 2.5 takes a thinkingBudget, Gemini 3 a thinkingLevel */
  thinkingStyle: 'budget' | 'level';
  fallbackThoughtSignature?: string;
}

export const EFFORT_BUDGETS: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 16384,
  xhigh: 24576,
  max: 32768,
};
const EFFORT_LEVELS: Record<ReasoningEffort, 'low' | 'high'> = {
  none: 'low',
  minimal: 'low',
  low: 'low',
  medium: 'high',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

function toolConfig(c: ToolChoice): Record<string, unknown> {
  if (c === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (c === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (c === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [c.name] } };
}

function thinkingConfig(req: TextRequest, opts: GoogleRequestOptions, warnings: Warning[]): Record<string, unknown> | undefined {
  const r = req.reasoning;
  if (!r) return undefined;
  const off = r.effort === 'none' || r.budgetTokens === 0;
  const include = off ? false : (r.includeThoughts ?? true);
  if (opts.thinkingStyle === 'level') {
    if (r.budgetTokens !== undefined && r.effort === undefined)
      warnings.push(unsupportedSetting('reasoning.budgetTokens', 'this upstream takes a thinking level; sent as the nearest level'));
    const level = r.effort ? EFFORT_LEVELS[r.effort] : (r.budgetTokens ?? 0) > 4096 ? 'high' : 'low';
    if (off) warnings.push(unsupportedSetting('reasoning.effort', 'thinking cannot be switched off on this upstream; sent as low'));
    return { thinkingLevel: level, includeThoughts: include };
  }
  const budget = r.budgetTokens ?? (r.effort ? EFFORT_BUDGETS[r.effort] : undefined);
  return { ...(budget !== undefined ? { thinkingBudget: budget } : {}), includeThoughts: include };
}

/** Canonical TextRequest → generateContent body (the model goes in the URL). Pure. */
export function convertToGoogleRequest(
  req: TextRequest,
  opts: GoogleRequestOptions,
): { body: Record<string, unknown>; warnings: Warning[] } {
  const { contents, warnings } = convertToGoogleContents(req.messages, { fallbackThoughtSignature: opts.fallbackThoughtSignature });
  const unread = unreadFields(req, GOOGLE_FORMAT);
  warnings.push(...unread.warnings);
  const body: Record<string, unknown> = { contents };
  if (req.system) body.systemInstruction = { parts: [{ text: req.system }] };
  const jsonSchema = opts.schemaDialect === 'json-schema';
  if (req.tools?.length) {
    body.tools = [
      {
        functionDeclarations: req.tools.map((t) => ({
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          [jsonSchema ? 'parametersJsonSchema' : 'parameters']: t.parameters,
        })),
      },
    ];
  }
  if (req.toolChoice !== undefined) body.toolConfig = toolConfig(req.toolChoice);

  const g: Record<string, unknown> = {};
  if (req.temperature !== undefined) g.temperature = req.temperature;
  if (req.topP !== undefined) g.topP = req.topP;
  if (req.topK !== undefined) g.topK = req.topK;
  if (req.maxOutputTokens !== undefined) g.maxOutputTokens = req.maxOutputTokens;
  if (req.stopSequences?.length) g.stopSequences = req.stopSequences;
  if (req.seed !== undefined) g.seed = req.seed;
  if (req.presencePenalty !== undefined) g.presencePenalty = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) g.frequencyPenalty = req.frequencyPenalty;
  if (req.n !== undefined && req.n > 1)
    warnings.push(unsupportedSetting('n', 'one result per upstream call; extra candidates not requested'));
  if (req.responseFormat?.type === 'json') {
    g.responseMimeType = 'application/json';
    if (req.responseFormat.schema) g[jsonSchema ? 'responseJsonSchema' : 'responseSchema'] = req.responseFormat.schema;
  }
  const thinking = thinkingConfig(req, opts, warnings);
  if (thinking) g.thinkingConfig = thinking;
  if (Object.keys(g).length) body.generationConfig = g;
  if (req.user !== undefined) warnings.push(unsupportedSetting('user', 'Gemini has no end-user field; not sent'));
  return { body: { ...unread.fields, ...body }, warnings };
}
