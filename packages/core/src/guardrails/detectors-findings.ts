/** What every detector reports, and the two operations on findings (issue 38). */

export type PiiEntity = 'email' | 'phone' | 'card' | 'iban' | 'ssn' | 'secret' | 'jwt';

/** One match: `[start, end)` in UTF-16 code units of the scanned text, and what replaces it when masked. */
export interface Finding {
  start: number;
  end: number;
  kind: string;
  placeholder: string;
}

/** `find` returns findings sorted by start and never overlapping. */
export interface TextDetector {
  find(text: string): Finding[];
}

/**
 * Sorted, non-overlapping findings from any set of them: where two overlap the longer one wins (the earlier one on a
 * tie), so a card number inside a longer secret is reported once, as the secret.
 */
export function resolveOverlaps(findings: readonly Finding[]): Finding[] {
  if (findings.length < 2) return [...findings];
  const bySize = [...findings].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Finding[] = [];
  for (const f of bySize) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  return kept.sort((a, b) => a.start - b.start);
}

/** The text with each finding replaced by its placeholder; findings must be sorted and non-overlapping. */
export function maskFindings(text: string, findings: readonly Finding[]): string {
  if (findings.length === 0) return text;
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + f.placeholder;
    at = f.end;
  }
  return out + text.slice(at);
}

/** Several detectors as one: their findings merged, overlaps resolved as above. */
export function combineDetectors(detectors: readonly TextDetector[]): TextDetector {
  if (detectors.length === 1) return detectors[0]!;
  return { find: (text) => resolveOverlaps(detectors.flatMap((d) => d.find(text))) };
}
