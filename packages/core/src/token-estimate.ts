import type { Message, TextRequest } from './text';

/** Characters per token: the rule of thumb OpenAI and Anthropic both give for English text. */
const CHARS_PER_TOKEN = 4;
/** Framing per message (role markers) and per request, as chat templates add. */
const PER_MESSAGE = 3;
const PER_REQUEST = 3;
/** An image of unknown size: Anthropic's cost of a full-size image ((1092 × 1092) / 750). */
const PER_IMAGE = 1600;

const text = (s: string) => Math.ceil(s.length / CHARS_PER_TOKEN);

/** Tokens of generated text delivered so far (an abandoned stream is charged for these). */
export const estimateTextTokens = text;

function messageTokens(m: Message): number {
  let n = PER_MESSAGE;
  for (const part of m.content) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        n += text(part.text);
        break;
      case 'image':
        n += PER_IMAGE;
        break;
      case 'tool-call':
        n += text(part.name) + text(part.arguments);
        break;
      case 'tool-result':
        n += part.content.reduce((sum, c) => sum + (c.type === 'text' ? text(c.text) : PER_IMAGE), 0);
        break;
    }
  }
  return n;
}

/**
 * The input tokens of a request, estimated without the model's tokenizer: for upstreams that cannot count
 * (docs/formats/anthropic-messages.md). Deterministic, and never below the real count by much for English text.
 */
export function estimateInputTokens(req: Pick<TextRequest, 'system' | 'messages' | 'tools'>): number {
  let n = PER_REQUEST + (req.system ? PER_MESSAGE + text(req.system) : 0);
  for (const m of req.messages) n += messageTokens(m);
  for (const t of req.tools ?? []) n += text(t.name) + text(t.description ?? '') + text(JSON.stringify(t.parameters));
  return n;
}
