/** Moderation: category scores of texts and images, whatever the inbound format or upstream. */
import type { Warning } from './warnings';

/** OpenAI's 13 categories, in its order: the names every moderation format and upstream answers with. */
export const MODERATION_CATEGORIES = [
  'hate',
  'hate/threatening',
  'harassment',
  'harassment/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

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
