import type { Finding, TextDetector } from './detectors-findings';
import type { GuardrailMode } from './guardrail';

/** One detector of a window and what its matches do; the stages run in order, each on the text the ones before masked. */
export interface WindowStage {
  detector: TextDetector;
  mode: GuardrailMode;
}

/** What the stream may forward now, which stages matched in it, and (set) the block that ends the stream after it. */
export interface WindowStep {
  release: string;
  /** stages (by index) with a match in `release`: masked there (`mask`) or left as it was (`log`) */
  hits: number[];
  /** the stage whose match ends the stream, and the match (offsets in the whole stream as it arrived) */
  blocked?: { stage: number; finding: Finding };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
/** Released characters kept as left context, so `\b` and digit-run rules see what precedes the window. */
const CONTEXT = 32;

/**
 * A text under the masks of the stages so far, and where each of its positions (0..length) falls in the text as it
 * arrived: `lo` rounds a position inside a placeholder down to the start of what it replaced, `hi` up to its end.
 */
interface View {
  text: string;
  lo: number[];
  hi: number[];
}

/** A finding of one stage: offsets in that stage's input (`start`, `end`) and in the text as it arrived (`from`, `to`). */
type Found = Finding & { from: number; to: number };

interface StageScan {
  mode: GuardrailMode;
  /** the stage's input */
  input: View;
  found: Found[];
}

/**
 * Output scanning for a stream (issue 38): one window for every regex and pii guardrail of a run, so whatever their
 * number at most `holdback` characters are held back. Text is released once at least `holdback` characters follow
 * it, so a match up to `holdback` characters long that spans chunk boundaries is seen whole before any of its
 * characters is released. Each push scans the held window plus the new delta with every stage, in order, each on the
 * text as the stages before it masked it (what a non-streamed check does), never the stream so far.
 *
 * A match that touches the end of the text seen so far may still grow or vanish with the next delta (an e-mail whose
 * domain is half sent), so it is held, not acted on, unless holding it would keep more than `holdback` characters. A
 * `block` match ends the stream as soon as it is settled: what precedes it is released as at the stream's end. A
 * masked match is released whole (its placeholder) or not at all, so the release point moves past one that straddles
 * it. The last few released characters of each stage's input are scanned again as context (a word boundary, the digit
 * before a number); a match that began in released text (one longer than `holdback`) counts from the first held
 * character.
 */
export class StreamWindow {
  private held = '';
  /** per stage: the last released characters of its input, scanned as context only */
  private readonly contexts: string[];
  /** offset in the whole stream of held[0] */
  private offset = 0;
  private stopped = false;

  constructor(
    private readonly stages: readonly WindowStage[],
    private readonly holdback = 256,
  ) {
    this.contexts = stages.map(() => '');
  }

  push(delta: string): WindowStep {
    return this.step(this.held + delta, false);
  }

  /** The stream ended: a last scan of what is held, then all of it (or what precedes a block). */
  end(): WindowStep {
    return this.step(this.held, true);
  }

  private step(text: string, final: boolean): WindowStep {
    if (this.stopped) return { release: '', hits: [] };
    const { scans, output } = this.scan(text);
    const cut = releasePoint(scans, final ? text.length : safeBoundary(text, text.length - this.holdback));
    const block = firstBlock(scans, text.length, cut, final);
    if (block) return this.stop(text, block);
    for (const [i, s] of scans.entries()) this.contexts[i] = (this.contexts[i] + prefixOf(s.input, cut).slice(-CONTEXT)).slice(-CONTEXT);
    this.held = text.slice(cut);
    this.offset += cut;
    const hits = scans.flatMap((s, i) => (s.found.some((f) => f.from < cut) ? [i] : []));
    return { release: prefixOf(output, cut), hits };
  }

  /** Every stage over `text` in order (after its context), each on the text the stages before it masked. */
  private scan(text: string): { scans: StageScan[]; output: View } {
    const at = [...Array(text.length + 1).keys()];
    let view: View = { text, lo: at, hi: at };
    const scans = this.stages.map(({ detector, mode }, i): StageScan => {
      const input = view;
      const found = findAfter(detector, this.contexts[i]!, input.text).map((f) => ({
        ...f,
        from: input.lo[f.start]!,
        to: input.hi[f.end]!,
      }));
      if (mode === 'mask') view = masked(input, found);
      return { mode, input, found };
    });
    return { scans, output: view };
  }

  /** The block ends the stream: what precedes its match is released as at the stream's end (the other stages on it). */
  private stop(text: string, block: { stage: number; finding: Found }): WindowStep {
    const { from, to, kind, placeholder } = block.finding;
    const at = this.offset;
    const before = this.step(text.slice(0, from), true);
    this.stopped = true;
    this.held = '';
    if (before.blocked) return before;
    return { ...before, blocked: { stage: block.stage, finding: { start: at + from, end: at + to, kind, placeholder } } };
  }
}

/** Findings of `detector` in `text` (offsets in it), scanned after `context`; one that began in the context starts at 0. */
function findAfter(detector: TextDetector, context: string, text: string): Finding[] {
  const n = context.length;
  if (n === 0) return detector.find(text);
  const found: Finding[] = [];
  for (const f of detector.find(context + text)) if (f.end > n) found.push({ ...f, start: Math.max(f.start, n) - n, end: f.end - n });
  return found;
}

/** The view with each finding replaced by its placeholder (findings and placeholders are never empty). */
function masked(view: View, findings: readonly Finding[]): View {
  if (findings.length === 0) return view;
  const out: View = { text: '', lo: [], hi: [] };
  const mark = (lo: number, hi: number) => {
    out.lo.push(lo);
    out.hi.push(hi);
  };
  let at = 0;
  const keep = (to: number) => {
    for (let k = at; k < to; k++) mark(view.lo[k]!, view.hi[k]!);
    out.text += view.text.slice(at, to);
  };
  for (const f of findings) {
    keep(f.start);
    mark(view.lo[f.start]!, view.hi[f.start]!);
    for (let j = 1; j < f.placeholder.length; j++) mark(view.lo[f.start]!, view.hi[f.end]!);
    out.text += f.placeholder;
    at = f.end;
  }
  // the positions after the last placeholder, the text's end included
  keep(view.text.length + 1);
  return out;
}

/** The view's text before position `cut` of the text as it arrived (`cut` never falls inside a placeholder). */
function prefixOf(view: View, cut: number): string {
  const k = view.lo.findIndex((at) => at >= cut);
  return view.text.slice(0, k < 0 ? view.text.length : k);
}

/** `at`, moved past every masked match it would cut (a placeholder is released whole). */
function releasePoint(scans: readonly StageScan[], at: number): number {
  let cut = at;
  for (let moved = true; moved;) {
    moved = false;
    for (const f of scans.flatMap((s) => (s.mode === 'mask' ? s.found : [])))
      if (f.from < cut && cut < f.to) {
        cut = f.to;
        moved = true;
      }
  }
  return cut;
}

/**
 * The first `block` match to act on now: one settled (text follows it), one the release point reaches (holding it
 * would keep more than the holdback), or any at the stream's end.
 */
function firstBlock(scans: readonly StageScan[], length: number, cut: number, final: boolean) {
  let first: { stage: number; finding: Found } | undefined;
  scans.forEach((s, stage) => {
    if (s.mode !== 'block') return;
    const f = s.found.find((x) => final || x.to < length || x.from < cut);
    if (f && (!first || f.from < first.finding.from)) first = { stage, finding: f };
  });
  return first;
}

/** Never split a surrogate pair between what is released and what is held. */
function safeBoundary(text: string, at: number): number {
  if (at <= 0) return 0;
  return isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}
