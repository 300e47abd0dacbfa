import { invalid } from './errors';
import type { ModelSpec } from './catalogue';
import type { ReasoningEffort } from './text';

/** The code every format answers when a model cannot honour the reasoning a caller asked for. */
export const UNSUPPORTED_REASONING = 'unsupported_reasoning_effort';

export interface ReasoningAsk {
  /** the effort asked for, in canonical lower case; undefined when the caller asked for thinking without a level */
  effort?: string;
  /** the request field that carried the ask, as the caller spelled it (the error's `param`) */
  param: string;
  /** the field to omit on a model that does not reason, when it is not `param` itself */
  omit?: string;
  /** how to show the allowed efforts in this format (Gemini spells them in upper case) */
  spell?: (effort: string) => string;
}

/**
 * The reasoning rule, once for every format: a model whose catalogue entry declares no `reasoningEfforts` forwards
 * whatever the caller asked and lets the upstream decide; a declared list refuses any effort outside it, and a declared
 * empty list (`[]`) says the model does not reason at all. Returns the effort narrowed to the canonical type.
 */
export function checkReasoningEffort(model: ModelSpec, ask: ReasoningAsk): ReasoningEffort | undefined {
  const allowed = model.reasoningEfforts;
  if (!allowed) return ask.effort as ReasoningEffort | undefined;
  if (!allowed.length) {
    throw invalid(UNSUPPORTED_REASONING, `Model ${model.id} is not a reasoning model; omit "${ask.omit ?? ask.param}".`, ask.param);
  }
  if (ask.effort === undefined) return undefined;
  if (!allowed.includes(ask.effort)) {
    const spell = ask.spell ?? ((e: string) => e);
    throw invalid(
      UNSUPPORTED_REASONING,
      `"${ask.param}" ${JSON.stringify(spell(ask.effort))} is not supported by ${model.id}; allowed: ${allowed.map(spell).join(', ')}.`,
      ask.param,
    );
  }
  return ask.effort as ReasoningEffort;
}

/** Whether thinking asked for is passed on: unless the catalogue declares that the model does not reason (`[]`). */
export function mayReason(model: ModelSpec): boolean {
  return model.reasoningEfforts === undefined || model.reasoningEfforts.length > 0;
}
