import type { GatewayError } from '../errors';
import { piiDetector, regexDetector, StreamWindow, type Finding, type TextDetector } from '../guardrails/detectors';
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

/**
 * A stream's output under the output guardrails. regex and pii guardrails each scan through a StreamWindow, one after
 * the other (at most its holdback of characters is held back each); a `block` match ends the stream before the
 * matched text is released. When a moderation or webhook guardrail runs on output, the whole text is held until the
 * stream's end, then checked at once (those look at the whole answer).
 */
export class OutputStreamScanner {
  private readonly windows: Array<{ spec: GuardrailSpec; window: OutputWindow; hit: boolean }>;
  private readonly whole: GuardrailSpec[];
  private held = '';

  constructor(
    private readonly guardrails: Guardrails,
    specs: readonly GuardrailSpec[],
    private readonly call: GuardrailCall,
  ) {
    const output = specs.filter((s) => runsOn(s, 'output'));
    this.windows = output
      .filter((s) => s.type === 'regex' || s.type === 'pii')
      .map((spec) => ({
        spec,
        window:
          modeOf(spec) === 'block' ? new StreamWindow(detectorOf(spec)) : new ContinuingWindow(detectorOf(spec), modeOf(spec) === 'mask'),
        hit: false,
      }));
    this.whole = output.filter((s) => s.type === 'moderation' || s.type === 'webhook');
  }

  get active(): boolean {
    return this.windows.length > 0 || this.whole.length > 0;
  }

  /** The text that may be forwarded now, and the guardrail_blocked error that ends the stream after it. */
  push(delta: string): ScannedOutput {
    const r = this.pass(delta, (w, text) => w.push(text));
    return { ...r, text: this.hold(r.text) };
  }

  /** What is left at the end of the stream (the held text, checked whole by moderation and webhook guardrails). */
  async end(): Promise<ScannedOutput> {
    const r = this.pass('', (w, text) => (text ? merge(w.push(text), w.end()) : w.end()));
    const text = this.hold(r.text);
    if (r.blocked || this.whole.length === 0) return { ...r, text };
    const [checked] = await this.guardrails.check(this.whole, 'output', [this.held], this.call);
    return { text: checked ?? '' };
  }

  private hold(text: string): string {
    if (this.whole.length === 0) return text;
    this.held += text;
    return '';
  }

  private pass(text: string, step: (w: OutputWindow, text: string) => { release: string; finding?: unknown }): ScannedOutput {
    let out = text;
    for (const entry of this.windows) {
      const r = step(entry.window, out);
      out = r.release;
      if (r.finding && !entry.hit) {
        // one record per guardrail per stream; a block ends the stream after the text released before the match
        entry.hit = true;
        const mode = modeOf(entry.spec);
        this.guardrails.record(entry.spec, 'output', mode === 'block' ? 'blocked' : mode === 'mask' ? 'masked' : 'logged', this.call);
        if (mode === 'block') return { text: out, blocked: guardrailBlocked(entry.spec.id, 'output') };
      }
    }
    return { text: out };
  }
}

/** Output a stream may forward, and (after it) the error that ends the stream. */
export interface ScannedOutput {
  text: string;
  blocked?: GatewayError;
}

function merge(a: { release: string; finding?: unknown }, b: { release: string; finding?: unknown }) {
  return { release: a.release + b.release, finding: a.finding ?? b.finding };
}

type WindowStep = { release: string; finding?: Finding };
type OutputWindow = { push(delta: string): WindowStep; end(): WindowStep };

/**
 * A StreamWindow that goes on after a match (modes `mask` and `log`): the match is released as its placeholder
 * (mask) or as it was (log), and scanning resumes after it in a fresh window. `pending` is what the current window
 * holds: the text pushed into it and not yet released.
 */
class ContinuingWindow implements OutputWindow {
  private window: StreamWindow;
  private pending = '';

  constructor(
    private readonly detector: TextDetector,
    private readonly mask: boolean,
  ) {
    this.window = new StreamWindow(detector);
  }

  push(delta: string): WindowStep {
    this.pending += delta;
    return this.run(this.window.push(delta), false);
  }

  end(): WindowStep {
    return this.run(this.window.end(), true);
  }

  private run(first: WindowStep, finish: boolean): WindowStep {
    let step = first;
    let out = '';
    let found: Finding | undefined;
    for (;;) {
      out += step.release;
      this.pending = this.pending.slice(step.release.length);
      if (step.finding) {
        found ??= step.finding;
        const length = Math.max(step.finding.end - step.finding.start, 1);
        out += this.mask ? step.finding.placeholder : this.pending.slice(0, length);
        this.pending = this.pending.slice(length);
        this.window = new StreamWindow(this.detector);
        step = this.window.push(this.pending);
        continue;
      }
      if (finish && this.pending) {
        step = this.window.end();
        continue;
      }
      return { release: out, finding: found };
    }
  }
}
