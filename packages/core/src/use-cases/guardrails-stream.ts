import type { GatewayError } from '../errors';
import { piiDetector, regexDetector, StreamWindow, type TextDetector } from '../guardrails/detectors';
import type { WindowStep } from '../guardrails/stream-window';
import type { TextStreamPart } from '../text';
import { guardrailBlocked, modeOf, runsOn, type GuardrailSpec } from '../guardrails/guardrail';
import type { GuardrailCall, Guardrails } from './guardrails';

const detectors = new WeakMap<GuardrailSpec, TextDetector>();

export function detectorOf(spec: GuardrailSpec): TextDetector {
  const known = detectors.get(spec);
  if (known) return known;
  if (spec.type !== 'regex' && spec.type !== 'pii') throw new Error(`${spec.type} has no text detector`);
  const d = spec.type === 'regex' ? regexDetector(spec.patterns) : piiDetector(spec.entities);
  detectors.set(spec, d);
  return d;
}

/** Which run of an answer a part continues: its text, its reasoning, or one tool call's arguments (by index). */
type Channel = 'text' | 'reasoning' | number;
type ContentDelta = Extract<TextStreamPart, { type: 'text-delta' | 'reasoning-delta' | 'tool-call-delta' }>;

function channelOf(part: TextStreamPart): Channel | undefined {
  if (part.type === 'text-delta') return 'text';
  if (part.type === 'reasoning-delta') return part.signature && !part.delta ? undefined : 'reasoning';
  if (part.type === 'tool-call-delta') return part.index;
  return undefined;
}

const deltaOf = (part: ContentDelta) => (part.type === 'tool-call-delta' ? part.argumentsDelta : part.delta);

/** The part carrying other text (a reasoning part's signature is sent on its own once its run ends). */
function withDelta(part: ContentDelta, text: string): ContentDelta {
  if (part.type === 'tool-call-delta') return { ...part, argumentsDelta: text };
  return { type: part.type, delta: text };
}

/**
 * A stream's output under the output guardrails: its text, its reasoning and each tool call's argument deltas, every
 * run of one of them scanned as it arrives. The regex and pii guardrails scan a run through one StreamWindow, in
 * order, so at most its holdback of characters is held back whatever their number; a run ends when a part of another
 * kind comes (its held text is released first, so parts keep their order). A `block` match ends the stream before
 * the matched text is released. When a moderation or webhook guardrail runs on output, every part is held until the stream's
 * end, then each run is checked whole at once (those look at the whole answer).
 */
export class OutputStreamScanner {
  private readonly specs: GuardrailSpec[];
  private readonly whole: GuardrailSpec[];
  /** one record per guardrail per stream */
  private readonly hit = new Set<GuardrailSpec>();
  private run?: { channel: Channel; part: ContentDelta; window?: StreamWindow };
  /** under moderation or webhook guardrails: the parts scanned so far, sent at the end */
  private held: TextStreamPart[] = [];

  constructor(
    private readonly guardrails: Guardrails,
    specs: readonly GuardrailSpec[],
    private readonly call: GuardrailCall,
  ) {
    const output = specs.filter((s) => runsOn(s, 'output'));
    this.specs = output.filter((s) => s.type === 'regex' || s.type === 'pii');
    this.whole = output.filter((s) => s.type === 'moderation' || s.type === 'webhook');
  }

  get active(): boolean {
    return this.specs.length > 0 || this.whole.length > 0;
  }

  /** The parts that may be forwarded now for one upstream part (not `finish`: see end), and the error that ends the stream after them. */
  push(part: TextStreamPart): ScannedOutput {
    const channel = channelOf(part);
    const out: TextStreamPart[] = [];
    if (this.run && this.run.channel !== channel) {
      const r = this.closeRun();
      out.push(...r.parts);
      if (r.blocked) return this.deliver(out, r.blocked);
    }
    if (channel === undefined) return this.deliver([...out, part]);
    const content = part as ContentDelta;
    this.run ??= { channel, part: withDelta(content, ''), window: this.window() };
    const r = this.pass(deltaOf(content), (w, text) => w.push(text));
    if (r.text) out.push(withDelta(content, r.text));
    if (r.blocked || content.type !== 'reasoning-delta' || !content.signature) return this.deliver(out, r.blocked);
    // a signature ends its reasoning run
    const end = this.closeRun();
    out.push(...end.parts);
    if (!end.blocked) out.push({ type: 'reasoning-delta', delta: '', signature: content.signature });
    return this.deliver(out, end.blocked);
  }

  /** What is left at the end of the stream (the held parts, each run checked whole by moderation and webhook guardrails). */
  async end(): Promise<ScannedOutput> {
    const last = this.closeRun();
    const r = this.deliver(last.parts, last.blocked);
    if (r.blocked || this.whole.length === 0) return r;
    const runs = runsOf(this.held);
    const texts = runs.flatMap((x) => (x.text === undefined ? [] : [x.text]));
    const checked = texts.length ? await this.guardrails.check(this.whole, 'output', texts, this.call) : [];
    let i = 0;
    return {
      parts: runs.flatMap((x) => {
        if (x.text === undefined) return [x.part];
        const text = checked[i++] ?? '';
        return text ? [withDelta(x.part as ContentDelta, text)] : [];
      }),
    };
  }

  private closeRun(): ScannedOutput {
    const run = this.run;
    if (!run) return { parts: [] };
    const r = this.pass('', (w) => w.end());
    this.run = undefined;
    return { parts: r.text ? [withDelta(run.part, r.text)] : [], blocked: r.blocked };
  }

  private deliver(parts: TextStreamPart[], blocked?: GatewayError): ScannedOutput {
    if (this.whole.length === 0) return { parts, blocked };
    this.held.push(...parts);
    return { parts: [], blocked };
  }

  /** The run's window over the regex and pii guardrails, in their order (none without any). */
  private window(): StreamWindow | undefined {
    if (this.specs.length === 0) return undefined;
    return new StreamWindow(this.specs.map((spec) => ({ detector: detectorOf(spec), mode: modeOf(spec) })));
  }

  /** The text the run's window releases for `text`, each guardrail's first hit of the stream recorded. */
  private pass(text: string, step: (w: StreamWindow, text: string) => WindowStep): { text: string; blocked?: GatewayError } {
    const window = this.run?.window;
    if (!window) return { text };
    const r = step(window, text);
    for (const i of r.hits) this.hitOnce(this.specs[i]!);
    if (!r.blocked) return { text: r.release };
    const spec = this.specs[r.blocked.stage]!;
    this.hitOnce(spec);
    // a block ends the stream after the text released before the match
    return { text: r.release, blocked: guardrailBlocked(spec.id, 'output') };
  }

  private hitOnce(spec: GuardrailSpec): void {
    if (this.hit.has(spec)) return;
    this.hit.add(spec);
    const mode = modeOf(spec);
    this.guardrails.record(spec, 'output', mode === 'block' ? 'blocked' : mode === 'mask' ? 'masked' : 'logged', this.call);
  }
}

/** Held parts with consecutive deltas of one run joined: a run has its text, any other part none. */
function runsOf(parts: readonly TextStreamPart[]): Array<{ part: TextStreamPart; text?: string }> {
  const runs: Array<{ part: TextStreamPart; text?: string; channel?: Channel }> = [];
  for (const part of parts) {
    const channel = channelOf(part);
    const last = runs[runs.length - 1];
    if (channel === undefined) runs.push({ part });
    else if (last?.channel === channel) last.text += deltaOf(part as ContentDelta);
    else runs.push({ part, channel, text: deltaOf(part as ContentDelta) });
  }
  return runs;
}

/** Parts a stream may forward, and (after them) the error that ends the stream. */
export interface ScannedOutput {
  parts: TextStreamPart[];
  blocked?: GatewayError;
}
