import {
  DEFAULT_MODERATION_MODEL,
  type ModerationMode,
  type ModerationOutcome,
  type ModerationVerdict,
  type TextModeration,
} from '@gateway/core';

/**
 * The in-band `moderation` object of OpenAI's 2.3.0 spec, as chat completions and Responses both take and answer it
 * (core text-moderation.ts runs it for upstreams that do not).
 */
const MODE = { type: 'object', properties: { mode: { enum: ['score', 'block'] } }, additionalProperties: false } as const;

export const MODERATION_PARAM_SCHEMA = {
  type: ['object', 'null'],
  properties: {
    model: { type: 'string', minLength: 1 },
    policy: { type: 'object', properties: { input: MODE, output: MODE }, additionalProperties: false },
  },
  additionalProperties: false,
  description:
    "Moderates the input and the output (OpenAI 2.3.0): `policy.input/output.mode` `score` (default) adds the verdicts; `block` withholds what is flagged (finish reason `content_filter`). Passed to an OpenAI upstream; for any other the gateway runs it with its own moderation model (`model`, default `omni-moderation-latest`, in the key's group).",
} as const;

interface ModerationParam {
  model?: string;
  policy?: { input?: { mode?: ModerationMode }; output?: { mode?: ModerationMode } };
}

/** The schema-checked param → the canonical policy (absent or null: none). */
export function decodeModerationParam(param: ModerationParam | null | undefined): TextModeration | undefined {
  if (!param) return undefined;
  return {
    model: param.model ?? DEFAULT_MODERATION_MODEL,
    input: param.policy?.input?.mode ?? 'score',
    output: param.policy?.output?.mode ?? 'score',
  };
}

/** One verdict as OpenAI's ModerationResultBody. */
export function moderationResultBody(model: string, v: ModerationVerdict) {
  return {
    type: 'moderation_result' as const,
    model,
    flagged: v.flagged,
    categories: v.categories,
    category_scores: v.scores,
    category_applied_input_types: v.appliedInputTypes,
  };
}

/** A side's outcome in chat completions' shape (`moderation_results` with a list) or Responses' (one result). */
export function moderationOutcomeBody(outcome: ModerationOutcome, shape: 'list' | 'single') {
  if (outcome.type === 'error') return { type: 'error' as const, code: outcome.code, message: outcome.message };
  const results = outcome.results.map((v) => moderationResultBody(outcome.model, v));
  return shape === 'list' ? { type: 'moderation_results' as const, model: outcome.model, results } : results[0];
}
