import type { Message, StoredConversation } from '@gateway/core';

/** What compaction keeps; documented in docs/formats/openai-responses.md. */
export const COMPACTION_RULES = Object.freeze({
  /** the last N user turns (a user message and everything after it) stay verbatim */
  keepTurns: 2,
  /** each older message becomes one digest line of at most this many words */
  wordsPerLine: 30,
  /** tool-call arguments in a digest line are cut to this many characters */
  argumentChars: 200,
  /** the digest keeps its most recent lines only */
  maxLines: 40,
});

export const SUMMARY_HEADER = 'Summary of the earlier conversation (compacted by the gateway):';

/** The sealed content of a compaction item. */
export interface CompactedConversation {
  v: 1;
  system?: string;
  digest: string[];
  kept: Message[];
}

const words = (text: string, n: number): string => {
  const w = text.trim().split(/\s+/).filter(Boolean);
  return w.length > n ? `${w.slice(0, n).join(' ')} …` : w.join(' ');
};

/** Plain text of a message, images as `[image]`; also the token estimate's input. */
function messageText(m: Message): string {
  return m.content
    .map((p) => {
      switch (p.type) {
        case 'text':
          return p.text;
        case 'image':
          return '[image]';
        case 'reasoning':
          return p.text;
        case 'tool-call':
          return `${p.name} ${p.arguments}`;
        case 'tool-result':
          return p.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(' ');
      }
    })
    .join(' ');
}

function summaryLines(m: Message): string[] | undefined {
  const first = m.role === 'user' ? m.content[0] : undefined;
  if (first?.type !== 'text' || !first.text.startsWith(SUMMARY_HEADER)) return undefined;
  return first.text
    .slice(SUMMARY_HEADER.length)
    .split('\n')
    .filter((l) => l.startsWith('- '));
}

/** One line per older message (a previous summary contributes its own lines unchanged). */
function digestLines(m: Message): string[] {
  const r = COMPACTION_RULES;
  const earlier = summaryLines(m);
  if (earlier) return earlier;
  if (m.role === 'tool') {
    return m.content.map(
      (p) =>
        `- tool ${p.name ?? p.toolCallId} returned: ${words(p.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(' '), r.wordsPerLine)}`,
    );
  }
  if (m.role === 'user') return [`- user: ${words(messageText(m), r.wordsPerLine)}`];
  const lines: string[] = [];
  const text = m.content
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join(' ');
  if (text.trim()) lines.push(`- assistant: ${words(text, r.wordsPerLine)}`);
  for (const p of m.content) {
    if (p.type === 'tool-call') {
      const args = p.arguments.length > r.argumentChars ? `${p.arguments.slice(0, r.argumentChars)}…` : p.arguments;
      lines.push(`- assistant called ${p.name}(${args})`);
    }
  }
  return lines;
}

/** Deterministic: the same conversation always compacts to the same summary. */
export function compactConversation(conv: StoredConversation): CompactedConversation {
  const msgs = conv.messages;
  const turnStarts = msgs.flatMap((m, i) => (m.role === 'user' && !summaryLines(m) ? [i] : []));
  const cut =
    turnStarts.length > COMPACTION_RULES.keepTurns
      ? turnStarts[turnStarts.length - COMPACTION_RULES.keepTurns]
      : (turnStarts[0] ?? msgs.length);
  let digest = msgs.slice(0, cut).flatMap(digestLines);
  if (digest.length > COMPACTION_RULES.maxLines) {
    const dropped = digest.length - (COMPACTION_RULES.maxLines - 1);
    digest = [`- (${dropped} earlier lines omitted)`, ...digest.slice(dropped)];
  }
  return { v: 1, system: conv.system, digest, kept: msgs.slice(cut) };
}

/** Back to a canonical conversation: one summary message (when there is a digest), then the kept turns. */
export function expandCompaction(c: CompactedConversation): StoredConversation {
  const messages: Message[] = [];
  if (c.digest.length) messages.push({ role: 'user', content: [{ type: 'text', text: [SUMMARY_HEADER, ...c.digest].join('\n') }] });
  messages.push(...c.kept);
  return { system: c.system, messages };
}

export function isCompactedConversation(v: unknown): v is CompactedConversation {
  const c = v as CompactedConversation;
  return !!c && c.v === 1 && Array.isArray(c.digest) && Array.isArray(c.kept);
}
