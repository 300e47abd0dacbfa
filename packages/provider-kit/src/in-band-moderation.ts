import type { ModerationOutcome, ModerationReport, ModerationVerdict, TextModeration } from '@gateway/core';
import { s, type Infer } from './upstream-schema';

/**
 * The in-band `moderation` of OpenAI's 2.3.0 spec on an upstream that runs it (OpenAI): the request's policy as
 * OpenAI takes it, and the verdicts it answers (chat completions list them under `moderation_results`, Responses
 * give one result a side) as canonical outcomes. Every field may be missing; a side without a shape we know is
 * reported as an error rather than guessed.
 */
const resultBody = s.object({
  type: s.string(),
  model: s.string(),
  flagged: s.boolean(),
  categories: s.unknown(),
  category_scores: s.unknown(),
  category_applied_input_types: s.unknown(),
});

const side = s.object({
  type: s.string(),
  model: s.string(),
  results: s.array(resultBody),
  flagged: s.boolean(),
  categories: s.unknown(),
  category_scores: s.unknown(),
  category_applied_input_types: s.unknown(),
  code: s.string(),
  message: s.string(),
});

export const upstreamModerationSchema = s.object({ input: side, output: side });
export type UpstreamModeration = Infer<typeof upstreamModerationSchema>;

/** The canonical policy → OpenAI's `moderation` request object. */
export function moderationParam(m: TextModeration) {
  return { model: m.model, policy: { input: { mode: m.input }, output: { mode: m.output } } };
}

const record = <T>(v: unknown): Record<string, T> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, T>) : {});

function verdict(r: Infer<typeof resultBody>): ModerationVerdict {
  return {
    flagged: r.flagged ?? false,
    categories: record<boolean>(r.categories),
    scores: record<number>(r.category_scores),
    appliedInputTypes: record<string[]>(r.category_applied_input_types),
  };
}

function outcome(o: Infer<typeof side> | undefined): ModerationOutcome {
  if (o?.type === 'error' || !o)
    return { type: 'error', code: o?.code ?? 'missing', message: o?.message ?? 'The upstream answered no verdict.' };
  const results = o.type === 'moderation_results' ? (o.results ?? []) : [o];
  return { type: 'results', model: o.model ?? results[0]?.model ?? '', results: results.map(verdict) };
}

/** The upstream's verdicts, when it answered any. */
export function mapUpstreamModeration(m: UpstreamModeration | undefined): ModerationReport | undefined {
  return m ? { input: outcome(m.input), output: outcome(m.output) } : undefined;
}
