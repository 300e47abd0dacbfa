import type { Finding, TextDetector } from './detectors-findings';

/** What the stream may forward now; `finding` set means stop: nothing after `release` may be sent. */
export interface WindowStep {
  release: string;
  finding?: Finding;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
/** Released characters kept as left context, so `\b`, look-behinds and digit-run rules see what precedes the window. */
const CONTEXT = 32;

/**
 * Output scanning for a stream (issue 38): text is held back until at least `holdback` characters follow it, so a
 * match up to `holdback` characters long that spans chunk boundaries is seen whole before any of its characters is
 * released. Each push scans only the held window plus the new delta (at most `holdback` + delta characters), never
 * the stream so far. Findings carry offsets in the whole stream.
 *
 * A match that touches the end of the text seen so far may still grow or vanish with the next delta (an e-mail whose
 * domain is half sent), so it is held, not reported, unless holding it would keep more than `holdback` characters.
 * The last few released characters are scanned again as context (a word boundary, the digit before a number), so the
 * window finds what a scan of the whole text finds; a match that began in released text (one longer than
 * `holdback`) is reported from the first held character.
 */
export class StreamWindow {
  private held = '';
  /** the last released characters, scanned as context only */
  private context = '';
  /** offset in the whole stream of held[0] */
  private offset = 0;
  private stopped = false;

  constructor(
    private readonly detector: TextDetector,
    private readonly holdback = 256,
  ) {}

  push(delta: string): WindowStep {
    if (this.stopped) return { release: '' };
    const text = this.held + delta;
    const findings = this.scan(text);
    const first = findings[0];
    const safeUpTo = this.safeBoundary(text, text.length - this.holdback);
    if (first && (first.end < text.length || first.start < safeUpTo || findings.length > 1)) return this.stop(text, first);
    return this.releaseUpTo(text, safeUpTo);
  }

  /** The stream ended: a last scan of what is held, then all of it (or what precedes a finding). */
  end(): WindowStep {
    if (this.stopped) return { release: '' };
    const text = this.held;
    const first = this.scan(text)[0];
    if (first) return this.stop(text, first);
    return this.releaseUpTo(text, text.length);
  }

  /** Findings in `text` (offsets in it), scanned after the context. */
  private scan(text: string): Finding[] {
    const n = this.context.length;
    if (n === 0) return this.detector.find(text);
    const found: Finding[] = [];
    for (const f of this.detector.find(this.context + text))
      if (f.end > n) found.push({ ...f, start: Math.max(f.start, n) - n, end: f.end - n });
    return found;
  }

  private stop(text: string, f: Finding): WindowStep {
    this.stopped = true;
    this.held = '';
    return {
      release: text.slice(0, f.start),
      finding: { ...f, start: f.start + this.offset, end: f.end + this.offset },
    };
  }

  private releaseUpTo(text: string, upTo: number): WindowStep {
    if (upTo <= 0) {
      this.held = text;
      return { release: '' };
    }
    const release = text.slice(0, upTo);
    this.held = text.slice(upTo);
    this.offset += upTo;
    this.context = release.length >= CONTEXT ? release.slice(-CONTEXT) : (this.context + release).slice(-CONTEXT);
    return { release };
  }

  /** Never split a surrogate pair between what is released and what is held. */
  private safeBoundary(text: string, at: number): number {
    if (at <= 0) return 0;
    return isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
  }
}
