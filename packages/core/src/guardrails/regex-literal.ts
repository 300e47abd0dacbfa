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
  let caseInsensitive = false;
  let best = '';
  let run = '';
  let lastWasLiteral = false;
  /** the most characters the pattern so far can match, and that before the current run and the best one */
  let width = 0;
  let runOffset = 0;
  let bestOffset = 0;
  const flush = () => {
    if (run.length > best.length) {
      best = run;
      bestOffset = runOffset;
    }
    run = '';
    lastWasLiteral = false;
  };
  const literal = (ch: string) => {
    if (run === '') runOffset = width;
    run += ch;
    width++;
    lastWasLiteral = true;
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '|') return undefined;
    if (c === '(') {
      const g = skipBracketed(pattern, i);
      if (g === BAIL) return undefined;
      if (g.setsI) caseInsensitive = true;
      flush();
      if (!g.flagsOnly) width = Infinity;
      i = g.next;
      continue;
    }
    if (c === '[') {
      const next = skipClass(pattern, i);
      if (next === BAIL) return undefined;
      flush();
      width += 2; // a class or `.` can match a character outside the BMP: two UTF-16 code units
      i = next;
      continue;
    }
    const repeat = c === '{' ? REPEAT.exec(pattern.slice(i, i + 24)) : null;
    if (c === '?' || c === '*' || c === '+' || repeat) {
      // the quantifier applies to the last atom: a literal that may occur zero times is not required
      if (lastWasLiteral && c !== '+') run = run.slice(0, -1);
      flush();
      if (c !== '?') width = Infinity;
      i += repeat ? repeat[0].length : 1;
      if (pattern[i] === '?') i++;
      continue;
    }
    if (c === '\\') {
      const e = pattern[i + 1];
      if (e === undefined) return undefined;
      if (/[A-Za-z0-9]/.test(e)) {
        if (!ONE_CHAR_ESCAPES.has(e)) return undefined;
        flush();
        width += 2;
        i += 2;
        continue;
      }
      literal(e);
      i += 2;
      continue;
    }
    if (c === '.' || c === '^' || c === '$' || c.charCodeAt(0) > 0x7e) {
      flush();
      width += 2;
      i++;
      continue;
    }
    literal(c);
    i++;
  }
  flush();
  if (best === '') return undefined;
  return { text: caseInsensitive ? best.toLowerCase() : best, caseInsensitive, maxOffset: bestOffset };
}
