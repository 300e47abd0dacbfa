/**
 * In-band moderation of a text request (the `moderation` object of OpenAI's 2.3.0 spec on chat completions and
 * Responses): the input and the output scored by a moderation model, and in `block` mode withheld when flagged.
 * An upstream that runs it itself (OpenAI) gets the request as written; for every other upstream the gateway runs
 * it with its own moderation model (use-cases/text-moderation.ts).
 */
import type { ModerationVerdict } from './moderation';

export type ModerationMode = 'score' | 'block';

export interface TextModeration {
  /** the moderation model the client named (resolved in the key's group when the gateway runs it) */
  model: string;
  input: ModerationMode;
  output: ModerationMode;
}

/** What one side (input or output) got: the verdicts, or why there are none. */
export type ModerationOutcome =
  { type: 'results'; model: string; results: ModerationVerdict[] } | { type: 'error'; code: string; message: string };

export interface ModerationReport {
  input: ModerationOutcome;
  output: ModerationOutcome;
}

/** The model the spec names when the client names none. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/** True when a side's outcome lets its content through: verdicts that flag nothing. An error withholds in block mode. */
export function passes(outcome: ModerationOutcome): boolean {
  return outcome.type === 'results' && outcome.results.every((r) => !r.flagged);
}
