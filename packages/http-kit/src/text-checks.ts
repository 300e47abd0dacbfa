import { isUtf8 } from 'node:buffer';

/**
 * What a body's text must be once decoded: well-formed in its declared charset, no NUL (PostgreSQL text
 * and jsonb cannot hold it), no lone surrogate (it cannot be encoded again), and JSON nested no deeper
 * than a fixed limit. Checked at the door, so no upstream call is made with text that cannot be stored.
 */
export type TextProblem = 'invalid_text' | 'nul_character' | 'json_too_deep';

function validUtf16(buf: Buffer, bigEndian: boolean): boolean {
  if (buf.length % 2) return false;
  for (let i = 0; i < buf.length; i += 2) {
    const u = bigEndian ? buf.readUInt16BE(i) : buf.readUInt16LE(i);
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = i + 2 < buf.length ? (bigEndian ? buf.readUInt16BE(i + 2) : buf.readUInt16LE(i + 2)) : 0;
      if (next < 0xdc00 || next > 0xdfff) return false;
      i += 2;
    } else if (u >= 0xdc00 && u <= 0xdfff) return false;
  }
  return true;
}

function validUtf32(buf: Buffer, bigEndian: boolean): boolean {
  if (buf.length % 4) return false;
  for (let i = 0; i < buf.length; i += 4) {
    const cp = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
  }
  return true;
}

/** Whether the raw bytes are well-formed in the charset (utf-8, utf-16*, utf-32*); other charsets are left to the parser. */
export function wellFormed(buf: Buffer, charset: string | undefined): boolean {
  const cs = (charset ?? 'utf-8').toLowerCase().replace(/^utf(?!-)/, 'utf-');
  if (cs === 'utf-8') return isUtf8(buf);
  if (cs.startsWith('utf-16') || cs.startsWith('utf-32')) {
    const wide = cs.startsWith('utf-32');
    // without le/be the byte order mark decides, as the decoder does (little-endian when absent)
    const bomBe = wide ? buf.length >= 4 && buf.readUInt32BE(0) === 0xfeff : buf.length >= 2 && buf.readUInt16BE(0) === 0xfeff;
    const bigEndian = cs.endsWith('be') || (!cs.endsWith('le') && bomBe);
    return wide ? validUtf32(buf, bigEndian) : validUtf16(buf, bigEndian);
  }
  return true;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first problem of one decoded string, or undefined. */
export function stringProblem(s: string): TextProblem | undefined {
  if (s.includes('\u0000')) return 'nul_character';
  if (LONE_SURROGATE.test(s)) return 'invalid_text';
  return undefined;
}

/** Walks a parsed JSON value without recursion (so any depth is safe to inspect): depth, then every key and string. */
export function jsonProblem(value: unknown, maxDepth: number): TextProblem | undefined {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      const p = stringProblem(v);
      if (p) return p;
    } else if (v && typeof v === 'object') {
      if (depth >= maxDepth) return 'json_too_deep';
      for (const [k, child] of Object.entries(v)) {
        const p = Array.isArray(v) ? undefined : stringProblem(k);
        if (p) return p;
        stack.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}
