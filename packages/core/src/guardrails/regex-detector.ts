import { RE2JS } from 're2js';
import type { Finding, TextDetector } from './detectors-findings';
import { resolveOverlaps } from './detectors-findings';
import { requiredLiteral, type RequiredLiteral } from './regex-literal';

interface CompiledPattern {
  re: RE2JS;
  literal: RequiredLiteral | undefined;
}

const NON_ASCII = /[^\x00-\x7f]/;

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
      let ascii: boolean | undefined;
      const found: Finding[] = [];
      for (const { re, literal } of compiled) {
        if (literal) {
          if (!literal.caseInsensitive) {
            if (!text.includes(literal.text)) continue;
          } else if ((ascii ??= !NON_ASCII.test(text))) {
            if (!(lower ??= text.toLowerCase()).includes(literal.text)) continue;
          }
        }
        // the DFA answers "any match?" several times faster than the matcher finds one
        if (!re.test(text)) continue;
        const m = re.matcher(text);
        while (m.find()) {
          const start = m.start();
          const end = m.end();
          if (end > start) found.push({ start, end, kind: 'regex', placeholder: '[REDACTED]' });
        }
      }
      return compiled.length > 1 ? resolveOverlaps(found) : found;
    },
  };
}
