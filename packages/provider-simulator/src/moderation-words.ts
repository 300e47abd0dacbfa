/**
 * The simulator's moderation: a small fixed word list per category, so a test (or a person trying the gateway) can
 * trigger each category on purpose: `kill` → violence, `idiot` → harassment, `suicide` → self-harm. Images are
 * not looked at: their categories score as clean, and say they were applied to the image.
 */
import { MODERATION_CATEGORIES, type ModerationCategory } from '@gateway/provider-kit';

/** Words and phrases (whole words, any case) that trigger each category. */
export const MODERATION_WORDS: Readonly<Record<ModerationCategory, readonly string[]>> = {
  hate: ['subhuman', 'vermin'],
  'hate/threatening': ['exterminate them'],
  harassment: ['idiot', 'moron', 'loser'],
  'harassment/threatening': ['kill you', 'hurt you'],
  illicit: ['counterfeit', 'launder'],
  'illicit/violent': ['pipe bomb', 'build a bomb'],
  'self-harm': ['suicide', 'self harm'],
  'self-harm/intent': ['kill myself', 'end my life'],
  'self-harm/instructions': ['how to overdose'],
  sexual: ['porn', 'nsfw'],
  'sexual/minors': ['csam'],
  violence: ['kill', 'murder', 'stab'],
  'violence/graphic': ['gore', 'dismember'],
};

/** The categories OpenAI's omni model also applies to images; the rest are text-only. */
const IMAGE_CATEGORIES: ReadonlySet<ModerationCategory> = new Set([
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'violence',
  'violence/graphic',
]);

const FLAG_AT = 0.5;

export interface WordVerdict {
  flagged: boolean;
  categories: Record<ModerationCategory, boolean>;
  scores: Record<ModerationCategory, number>;
  appliedInputTypes: Record<ModerationCategory, Array<'text' | 'image'>>;
}

function hitsIn(words: string, category: ModerationCategory): number {
  return MODERATION_WORDS[category].filter((w) => words.includes(` ${w} `)).length;
}

/** One input (its texts, and whether images came with them): each category's score from its word hits. */
export function moderateWords(texts: readonly string[], hasImage = false): WordVerdict {
  const words = ` ${texts.map((t) => (t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')).join(' | ')} `;
  const hasText = texts.length > 0;
  const v = { flagged: false, categories: {}, scores: {}, appliedInputTypes: {} } as WordVerdict;
  for (const c of MODERATION_CATEGORIES) {
    const hits = hasText ? hitsIn(words, c) : 0;
    // one hit is a confident 0.9, each more closer to 1; a clean text scores a small constant, as real models do
    const score = hits ? 1 - 0.1 ** hits : 0.0001;
    v.scores[c] = Number(score.toFixed(6));
    v.categories[c] = score >= FLAG_AT;
    v.flagged ||= v.categories[c];
    v.appliedInputTypes[c] = [...(hasText ? ['text' as const] : []), ...(hasImage && IMAGE_CATEGORIES.has(c) ? ['image' as const] : [])];
  }
  return v;
}
