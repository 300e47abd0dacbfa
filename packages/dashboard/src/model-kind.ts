export type Kind = 'text' | 'image' | 'video' | 'embedding' | 'speech' | 'transcription' | 'rerank' | 'moderation';

const NO_VERB_KINDS = ['speech', 'transcription', 'rerank', 'moderation'] as const;

/**
 * A model's kind from its entry in the Gemini-style list. The verbs tell video (a long-running operation), text
 * (streamed), embedding and image apart. Gemini has no verb for the other kinds, so the list's default description,
 * "<name> (<kind> model)", names them; a model whose operator wrote its own description is `other`, listed on Models
 * and offered by no Playground panel.
 */
export function kindOf(methods: string[], description: string | undefined): Kind | 'other' {
  if (methods.includes('predictLongRunning')) return 'video';
  if (methods.includes('streamGenerateContent')) return 'text';
  if (methods.includes('embedContent')) return 'embedding';
  if (methods.includes('generateContent')) return 'image';
  const named = /\((\w+) model\)$/.exec(description ?? '')?.[1];
  return NO_VERB_KINDS.find((k) => k === named) ?? 'other';
}
