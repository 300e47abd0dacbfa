/** Moderation: category scores of texts and images, whatever the inbound format or upstream. */
import type { Warning } from './warnings';

export type ModerationInput = { type: 'text'; text: string } | { type: 'image'; url: string };

export interface ModerationRequest {
  /** the upstream model name (the use case sets it per deployment) */
  model: string;
  /** one result per item: a text, or the parts of one multi-modal input */
  items: ReadonlyArray<readonly ModerationInput[]>;
}

export interface ModerationVerdict {
  flagged: boolean;
  categories: Record<string, boolean>;
  scores: Record<string, number>;
  /** per category, the input types (text, image) it was applied to */
  appliedInputTypes: Record<string, string[]>;
}

export interface ModerationResult {
  /** one per item, in order */
  results: ModerationVerdict[];
  usage?: { inputTokens: number };
  warnings: Warning[];
  upstreamRequestId?: string;
}
