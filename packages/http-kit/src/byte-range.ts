/** A single-range `Range: bytes=...` header (RFC 9110 §14), resolved against a known size. */
export type ByteRange = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: ByteRange = Object.freeze({ kind: 'whole' });

/** '' or a run of ASCII digits, else null; a plain loop, so any header length costs one pass. */
function digitsOf(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  return text;
}

/**
 * Malformed headers, other units and multi-range requests are answered with the whole file,
 * which RFC 9110 allows (a server may ignore Range); only a well-formed range that lies past
 * the end is unsatisfiable (416). Parsed with indexOf/trim rather than a regex: the header is
 * the caller's, and a backtracking pattern would let a long one stall the process.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (!header) return WHOLE;
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return WHOLE;
  const spec = header.slice(eq + 1);
  const dash = spec.indexOf('-');
  if (dash < 0) return WHOLE;
  const first = digitsOf(spec.slice(0, dash).trim());
  const last = digitsOf(spec.slice(dash + 1).trim());
  if (first === null || last === null || (first === '' && last === '')) return WHOLE;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return WHOLE;
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
