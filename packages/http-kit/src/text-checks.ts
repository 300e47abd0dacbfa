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

/** How a charset lays out code units: utf-8 (width 1), utf-16* (2) or utf-32* (4) and their byte order; other charsets are left to the parser. */
function layoutOf(buf: Buffer, charset: string | undefined): { width: 1 | 2 | 4; bigEndian: boolean } | undefined {
  const cs = (charset ?? 'utf-8').toLowerCase().replace(/^utf(?!-)/, 'utf-');
  if (cs === 'utf-8') return { width: 1, bigEndian: false };
  if (!cs.startsWith('utf-16') && !cs.startsWith('utf-32')) return undefined;
  const wide = cs.startsWith('utf-32');
  // without le/be the byte order mark decides, as the decoder does (little-endian when absent)
  const bomBe = wide ? buf.length >= 4 && buf.readUInt32BE(0) === 0xfeff : buf.length >= 2 && buf.readUInt16BE(0) === 0xfeff;
  return { width: wide ? 4 : 2, bigEndian: cs.endsWith('be') || (!cs.endsWith('le') && bomBe) };
}

/** Whether the raw bytes are well-formed in the charset (utf-8, utf-16*, utf-32*); other charsets are left to the parser. */
export function wellFormed(buf: Buffer, charset: string | undefined): boolean {
  const layout = layoutOf(buf, charset);
  if (!layout) return true;
  if (layout.width === 1) return isUtf8(buf);
  return layout.width === 4 ? validUtf32(buf, layout.bigEndian) : validUtf16(buf, layout.bigEndian);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/**
 * The values of raw JSON text, counted in one pass over its code units without parsing as every `{`, `[` and `,`
 * outside strings (each object and array, and each element or member after the first), stopping once past `max`.
 * It runs before JSON.parse, whose time and memory grow with this number far more than with the bytes: a few MB
 * of `{},` is millions of objects.
 */
export function jsonValueCount(buf: Buffer, charset: string | undefined, max = Infinity): number {
  const layout = layoutOf(buf, charset);
  if (!layout) return 0;
  return layout.width === 1 ? utf8ValueCount(buf, max) : wideValueCount(buf, layout.width, layout.bigEndian, max);
}

const structural = (c: number) => c === COMMA || c === OPEN_ARRAY || c === OPEN_OBJECT;

/** utf-8: a string is skipped with a native search for its closing quote (long base64 strings are most of a large body). */
function utf8ValueCount(buf: Buffer, max: number): number {
  let count = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (c === QUOTE) {
      let close = i;
      do close = buf.indexOf(QUOTE, close + 1);
      while (close !== -1 && escapedAt(buf, close));
      if (close === -1) break;
      i = close;
    } else if (structural(c) && ++count > max) break;
  }
  return count;
}

/** Whether the quote at `i` is escaped: an odd run of backslashes before it. */
function escapedAt(buf: Buffer, i: number): boolean {
  let n = 0;
  while (i - n - 1 >= 0 && buf[i - n - 1] === BACKSLASH) n++;
  return n % 2 === 1;
}

function wideValueCount(buf: Buffer, width: 2 | 4, bigEndian: boolean, max: number): number {
  const unit =
    width === 2
      ? (i: number) => (bigEndian ? buf.readUInt16BE(i) : buf.readUInt16LE(i))
      : (i: number) => (bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i));
  let count = 0;
  let inString = false;
  for (let i = 0; i + width <= buf.length; i += width) {
    const c = unit(i);
    if (inString) {
      if (c === BACKSLASH) i += width;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (structural(c) && ++count > max) break;
  }
  return count;
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
  // two parallel stacks and plain loops: no array per node, a walk of LIMITS.jsonValues values stays in milliseconds
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v === 'string') {
      const p = stringProblem(v);
      if (p) return p;
    } else if (v && typeof v === 'object') {
      if (depth >= maxDepth) return 'json_too_deep';
      if (Array.isArray(v)) {
        for (const child of v as unknown[]) {
          values.push(child);
          depths.push(depth + 1);
        }
      } else {
        for (const k of Object.keys(v)) {
          const p = stringProblem(k);
          if (p) return p;
          values.push((v as Record<string, unknown>)[k]);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}
