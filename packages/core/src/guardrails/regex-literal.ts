/**
 * A literal every match of an RE2 pattern must contain, found without running the pattern, so a text that lacks it
 * is passed without the (slower, pure-JS) RE2 engine. Conservative by construction: whatever this parser does not
 * fully understand (alternation at the top level, `\Q`, `\x`, `\p`, back-references, octal) yields no literal, and
 * then the pattern always runs.
 */
export interface RequiredLiteral {
  /** lower-cased when `caseInsensitive` */
  text: string;
  /** compare against the lower-cased text (see regex-detector.ts for the two non-ASCII letters RE2 folds to ASCII) */
  caseInsensitive: boolean;
  /** the most characters a match can hold before the literal (Infinity when unbounded): where a match can start */
  maxOffset: number;
}

const BAIL = Symbol('bail');
/** Escapes that stand for a class or an assertion of one character after the backslash. */
const ONE_CHAR_ESCAPES = new Set('dDsSwWbBAzntrfva');
const REPEAT = /^\{\d+(?:,\d*)?\}/;

/** The index just past the group or class that starts at `i`, and whether it set `i` (case-insensitive). */
function skipBracketed(p: string, i: number): { next: number; setsI: boolean; flagsOnly: boolean } | typeof BAIL {
  let depth = 0;
  let inClass = false;
  const start = i;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (p[i + 1] === '^') i++;
      if (p[i + 1] === ']') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      const group = p.slice(start, i + 1);
      return { next: i + 1, setsI: /^\(\?[a-zA-Z-]*i/.test(group), flagsOnly: /^\(\?[a-zA-Z-]*\)$/.test(group) };
    }
  }
  return BAIL;
}

function skipClass(p: string, i: number): number | typeof BAIL {
  i++;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++;
  for (; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      if (close < 0) return BAIL;
      i = close + 1;
    } else if (p[i] === ']') return i + 1;
  }
  return BAIL;
}

export function requiredLiteral(pattern: string): RequiredLiteral | undefined {
  const scan = new LiteralScan();
  let i = 0;
  while (i < pattern.length) {
    const next = scan.step(pattern, i);
    if (next === BAIL) return undefined;
    i = next;
  }
  return scan.result();
}

/** The scanner's state: the longest literal run so far, the run being read, and how wide a match can be before it. */
class LiteralScan {
  private caseInsensitive = false;
  private best = '';
  private run = '';
  private lastWasLiteral = false;
  /** the most characters the pattern so far can match, and that before the current run and the best one */
  private width = 0;
  private runOffset = 0;
  private bestOffset = 0;

  /** Reads the atom at `i`: the index after it, or BAIL for what this parser does not fully understand. */
  step(pattern: string, i: number): number | typeof BAIL {
    const c = pattern[i]!;
    if (c === '|') return BAIL;
    if (c === '(') return this.group(pattern, i);
    if (c === '[') {
      const next = skipClass(pattern, i);
      if (next === BAIL) return BAIL;
      this.wide(2); // a class or `.` can match a character outside the BMP: two UTF-16 code units
      return next;
    }
    const repeat = c === '{' ? REPEAT.exec(pattern.slice(i, i + 24)) : null;
    if (c === '?' || c === '*' || c === '+' || repeat) {
      // the quantifier applies to the last atom: a literal that may occur zero times is not required
      if (this.lastWasLiteral && c !== '+') this.run = this.run.slice(0, -1);
      this.flush();
      if (c !== '?') this.width = Infinity;
      let next = i + (repeat ? repeat[0].length : 1);
      if (pattern[next] === '?') next++;
      return next;
    }
    if (c === '\\') return this.escape(pattern, i);
    if (c === '.' || c === '^' || c === '$' || c.charCodeAt(0) > 0x7e) {
      this.wide(2);
      return i + 1;
    }
    this.literal(c);
    return i + 1;
  }

  result(): RequiredLiteral | undefined {
    this.flush();
    if (this.best === '') return undefined;
    const text = this.caseInsensitive ? this.best.toLowerCase() : this.best;
    return { text, caseInsensitive: this.caseInsensitive, maxOffset: this.bestOffset };
  }

  private group(pattern: string, i: number): number | typeof BAIL {
    const g = skipBracketed(pattern, i);
    if (g === BAIL) return BAIL;
    if (g.setsI) this.caseInsensitive = true;
    this.flush();
    if (!g.flagsOnly) this.width = Infinity;
    return g.next;
  }

  private escape(pattern: string, i: number): number | typeof BAIL {
    const e = pattern[i + 1];
    if (e === undefined) return BAIL;
    if (!/[A-Za-z0-9]/.test(e)) {
      this.literal(e);
      return i + 2;
    }
    if (!ONE_CHAR_ESCAPES.has(e)) return BAIL;
    this.wide(2);
    return i + 2;
  }

  /** A non-literal atom of at most `n` code units ends the run. */
  private wide(n: number): void {
    this.flush();
    this.width += n;
  }

  private flush(): void {
    if (this.run.length > this.best.length) {
      this.best = this.run;
      this.bestOffset = this.runOffset;
    }
    this.run = '';
    this.lastWasLiteral = false;
  }

  private literal(ch: string): void {
    if (this.run === '') this.runOffset = this.width;
    this.run += ch;
    this.width++;
    this.lastWasLiteral = true;
  }
}
