import { RE2JS } from 're2js';
import type { Finding, TextDetector } from './detectors-findings';
import { resolveOverlaps } from './detectors-findings';
import { requiredLiteral, type RequiredLiteral } from './regex-literal';

interface CompiledPattern {
  re: RE2JS;
  literal: RequiredLiteral | undefined;
}

/**
 * RE2's case folding joins two non-ASCII letters to ASCII ones: U+212A (Kelvin) to k, which toLowerCase also maps
 * to k, and U+017F (long s) to s, which it leaves alone. So a lower-cased text holds every case-insensitive match of
 * an ASCII literal, unless the literal has an s and the text a long s.
 */
const LONG_S = '\u017f';

/**
 * Deny patterns in RE2 syntax (`(?i)` included), run by RE2's linear-time engine so no pattern can hang the event
 * loop. Each match is a finding of kind `regex`, masked as `[REDACTED]`. A pattern RE2 refuses (including Perl-only
 * syntax such as look-arounds and back-references) throws an Error naming it, so a config load can say which one.
 */
export function regexDetector(patterns: readonly string[]): TextDetector {
  const compiled: CompiledPattern[] = patterns.map((pattern) => {
    try {
      return { re: RE2JS.compile(pattern), literal: requiredLiteral(pattern) };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`regex pattern ${JSON.stringify(pattern)} is not valid RE2 syntax: ${reason}`);
    }
  });
  return {
    find(text: string): Finding[] {
      let lower: string | undefined;
      let longS: boolean | undefined;
      const found: Finding[] = [];
      for (const { re, literal } of compiled) {
        // where the literal is searched, when it can be: the text, or the text lower-cased
        let hay: string | undefined;
        if (literal) {
          if (!literal.caseInsensitive) hay = text;
          else if (!literal.text.includes('s') || !(longS ??= text.includes(LONG_S))) hay = lower ??= text.toLowerCase();
        }
        let from = 0;
        if (hay !== undefined) {
          const at = hay.indexOf(literal!.text);
          if (at < 0) continue;
          // lower-casing can change a text's length (U+0130): offsets in it then say nothing of the text's
          if (hay.length === text.length && at - literal!.maxOffset > 1) from = at - literal!.maxOffset - 1;
        } else if (!re.test(text)) continue; // the DFA answers "any match?" several times faster than the matcher
        // a match cannot start before `from` + 1: the character at `from` stays as context for \b
        const m = re.matcher(from ? text.slice(from) : text);
        while (m.find()) {
          const start = m.start() + from;
          const end = m.end() + from;
          if (end > start) found.push({ start, end, kind: 'regex', placeholder: '[REDACTED]' });
          // every further match holds the literal after this one: none left means no need to scan on
          if (hay !== undefined && hay.length === text.length && hay.indexOf(literal!.text, end) < 0) break;
        }
      }
      return compiled.length > 1 ? resolveOverlaps(found) : found;
    },
  };
}
