import { newId } from '../auth';
import type { TextResult, TextStreamPart } from '../text';

/**
 * An answer as the response cache keeps it: the canonical result of a call answered in one piece, or the canonical
 * parts of a stream in their order and chunking. Never what belongs to one call only: the upstream's ids, its own
 * native answer or events (a replay is encoded by the client's format with fresh ids), the model name it answered as.
 */
export type CachedText = { kind: 'result'; result: TextResult } | { kind: 'stream'; parts: TextStreamPart[] };

/** The answer of a call as it may be kept and replayed to other calls. */
export function keptResult(result: TextResult): CachedText {
  const { id: _id, upstreamRequestId: _u, native: _n, ...rest } = result;
  return { kind: 'result', result: { ...rest, model: '' } };
}

/** A stream's parts as they may be kept: without native events and the upstream's request id. */
export function keptParts(parts: readonly TextStreamPart[]): CachedText {
  const kept: TextStreamPart[] = [];
  for (const part of parts) {
    if (part.type === 'native-event') continue;
    if (part.type === 'finish') {
      const { upstreamRequestId: _, ...finish } = part;
      kept.push(finish);
    } else kept.push(part);
  }
  return { kind: 'stream', parts: kept };
}

export function encodeAnswer(answer: CachedText): string {
  return JSON.stringify({ v: 1, ...answer });
}

/** A stored value, or undefined when it is not one this version reads (then it is a miss, replaced when stored again). */
export function decodeAnswer(value: string): CachedText | undefined {
  try {
    const parsed = JSON.parse(value) as { v?: number; kind?: string; result?: TextResult; parts?: TextStreamPart[] };
    if (parsed.v !== 1) return undefined;
    if (parsed.kind === 'result' && parsed.result && Array.isArray(parsed.result.content)) return { kind: 'result', result: parsed.result };
    if (parsed.kind === 'stream' && Array.isArray(parsed.parts)) return { kind: 'stream', parts: parsed.parts };
  } catch {
    // a value this version cannot read is a miss
  }
  return undefined;
}

/** Fresh tool-call ids for a replay (a client may keep ids across answers): same prefix, new random tail. */
function freshIds(): (id: string) => string {
  const seen = new Map<string, string>();
  return (id) => {
    let fresh = seen.get(id);
    if (!fresh) seen.set(id, (fresh = `${/^[A-Za-z]+_/.exec(id)?.[0] ?? 'call_'}${newId('', 24)}`));
    return fresh;
  };
}

/** A stored answer as one result of `model`, tool calls with fresh ids. */
export function replayedResult(result: TextResult, model: string): TextResult {
  const fresh = freshIds();
  const content = result.content.map((p) => (p.type === 'tool-call' ? { ...p, id: fresh(p.id) } : { ...p }));
  return { ...result, model, content, warnings: [...result.warnings] };
}

/**
 * A stored answer as parts: a stream's own parts (same order and chunk boundaries), or a result cut into the parts
 * a stream of it would have had (reasoning, text and each tool call in order, then the finish). Tool calls get fresh ids.
 */
export function* partsOf(answer: CachedText): Generator<TextStreamPart> {
  const fresh = freshIds();
  if (answer.kind === 'stream') {
    for (const part of answer.parts) yield part.type === 'tool-call-start' ? { ...part, id: fresh(part.id) } : { ...part };
    return;
  }
  const r = answer.result;
  let index = 0;
  for (const p of r.content) {
    if (p.type === 'text') yield { type: 'text-delta', delta: p.text };
    else if (p.type === 'reasoning') yield { type: 'reasoning-delta', delta: p.text, ...(p.signature ? { signature: p.signature } : {}) };
    else {
      yield { type: 'tool-call-start', index, id: fresh(p.id), name: p.name };
      yield { type: 'tool-call-delta', index: index++, argumentsDelta: p.arguments };
    }
  }
  yield {
    type: 'finish',
    finishReason: r.finishReason,
    usage: r.usage,
    ...(r.stopSequence ? { stopSequence: r.stopSequence } : {}),
    ...(r.warnings.length ? { warnings: r.warnings } : {}),
    ...(r.moderation ? { moderation: r.moderation } : {}),
  };
}
