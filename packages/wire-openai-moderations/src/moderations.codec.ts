import type { ModerationInput, ModerationVerdict } from '@gateway/core';
import type { ModerationRequestBody } from './moderations.request.schema';

/** One result per string; the parts of a multi-modal input are one item (one result). */
export function decodeModerationInput(input: ModerationRequestBody['input']): ModerationInput[][] {
  if (typeof input === 'string') return [[{ type: 'text', text: input }]];
  if (input.every((i): i is string => typeof i === 'string')) return input.map((text) => [{ type: 'text', text }]);
  return [
    input.map((p): ModerationInput =>
      typeof p === 'string' ? { type: 'text', text: p } : p.type === 'text' ? p : { type: 'image', url: p.image_url.url },
    ),
  ];
}

/** OpenAI's CreateModerationResponse. */
export function encodeModerationResponse(id: string, model: string, verdicts: readonly ModerationVerdict[]) {
  return {
    id,
    model,
    results: verdicts.map((v) => ({
      flagged: v.flagged,
      categories: v.categories,
      category_scores: v.scores,
      category_applied_input_types: v.appliedInputTypes,
    })),
  };
}
