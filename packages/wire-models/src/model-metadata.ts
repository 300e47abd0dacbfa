import type { ModelKind, ModelSpec } from '@gateway/core';

/**
 * What the lists report for fields the catalogue does not carry. Model creation dates are not
 * configured, so every model reports one fixed date: stable across restarts, honest about being unknown.
 */
export const MODEL_CREATED_AT = '2025-01-01T00:00:00Z';
export const MODEL_CREATED_UNIX = Date.parse(MODEL_CREATED_AT) / 1000;

/** Token limits by kind when the model's config gives none. */
export const DEFAULT_TOKEN_LIMITS: Record<ModelKind, { input: number; output: number }> = {
  text: { input: 32768, output: 8192 },
  image: { input: 480, output: 8192 },
  video: { input: 480, output: 8192 },
  embedding: { input: 8192, output: 1 },
  speech: { input: 4096, output: 0 },
  transcription: { input: 0, output: 0 },
  rerank: { input: 8192, output: 0 },
  moderation: { input: 32768, output: 0 },
};

/** The Gemini verbs this gateway serves for each kind of model. */
export const GENERATION_METHODS: Record<ModelKind, string[]> = {
  text: ['generateContent', 'streamGenerateContent'],
  image: ['generateContent'],
  video: ['predictLongRunning'],
  embedding: ['embedContent', 'batchEmbedContents'],
  speech: [],
  transcription: [],
  rerank: [],
  moderation: [],
};

export const displayNameOf = (m: ModelSpec): string => m.displayName ?? m.id;

/** The last dotted number in the id (`sim-video-2.0-fast` → `2.0`), else `001` as Google's own entries use. */
export function versionOf(m: ModelSpec): string {
  const numbers = m.id.match(/\d+(?:\.\d+)*/g);
  return numbers?.at(-1) ?? '001';
}

export function tokenLimitsOf(m: ModelSpec): { input: number; output: number } {
  const d = DEFAULT_TOKEN_LIMITS[m.kind];
  return { input: m.inputTokenLimit ?? d.input, output: m.outputTokenLimit ?? d.output };
}
