import type { Finding, TextDetector } from './detectors-findings';

/** What the stream may forward now; `finding` set means stop: nothing after `release` may be sent. */
export interface WindowStep {
  release: string;
  finding?: Finding;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Output scanning for a stream (issue 38): text is held back until at least `holdback` characters follow it, so a
 * match up to `holdback` characters long that spans chunk boundaries is seen whole before any of its characters is
 * released. Each push scans only the held window plus the new delta (at most `holdback` + delta characters), never
 * the stream so far. Findings carry offsets in the whole stream.
 *
 * A match that touches the end of the text seen so far may still grow or vanish with the next delta (an e-mail whose
 * domain is half sent), so it is held, not reported, unless holding it would keep more than `holdback` characters.
 */
export class StreamWindow {
  private held = '';
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
    const findings = this.detector.find(text);
    const first = findings[0];
    const safeUpTo = this.safeBoundary(text, text.length - this.holdback);
    if (first && (first.end < text.length || first.start < safeUpTo || findings.length > 1)) return this.stop(text, first);
    return this.releaseUpTo(text, safeUpTo);
  }

  /** The stream ended: a last scan of what is held, then all of it (or what precedes a finding). */
  end(): WindowStep {
    if (this.stopped) return { release: '' };
    const text = this.held;
    const first = this.detector.find(text)[0];
    if (first) return this.stop(text, first);
    return this.releaseUpTo(text, text.length);
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
    this.held = text.slice(upTo);
    this.offset += upTo;
    return { release: text.slice(0, upTo) };
  }

  /** Never split a surrogate pair between what is released and what is held. */
  private safeBoundary(text: string, at: number): number {
    if (at <= 0) return 0;
    return isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
  }
}
