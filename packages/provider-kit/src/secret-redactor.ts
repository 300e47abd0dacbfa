/**
 * Cuts upstream credentials out of text the gateway got from an upstream. An upstream may quote the
 * key it received whole, truncated (`sk-proj-****abcd`), in another case, base64-encoded (a Basic
 * header echoed back) or URL-encoded (a `?key=` echoed back), so every run of 8 or more characters
 * that is a fragment of any of those spellings is replaced (a run of letters only from MIN_LETTER_RUN).
 */
export type Redact = (text: string) => string;

/** What a cut-out run becomes. */
export const REDACTED = '[redacted]';

/** The shortest fragment of a key that counts as the key. */
export const MIN_FRAGMENT = 8;

/**
 * A run of letters alone from the middle of a key (`anthropic` in `req_anthropic_1`, from a key such as
 * `fake-anthropic-key-0001`) is a word far more often than a key: such a run counts from this length. Runs with a
 * digit or a symbol, and a key's first or last characters (what a truncated key shows), count from MIN_FRAGMENT.
 */
export const MIN_LETTER_RUN = 12;
const LETTERS_ONLY = /^[A-Za-z]+$/;

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

/** base64 of the key at each of the three byte alignments it can have inside a longer encoded string. */
function base64Spellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // the first group mixes in the padding bytes and the last may mix in what follows: keep only what is the key's alone
    const whole = Math.floor((shift + bytes.length) / 3) * 4;
    out.push(encoded.slice(shift ? 4 : 0, whole));
    if (shift === 0) out.push(encoded.replace(/=+$/, ''));
  }
  return out.flatMap((b) => [b, b.replace(/\+/g, '-').replace(/\//g, '_')]);
}

function spellings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), ...base64Spellings(secret)].map(asciiLower);
}

/** Builds the redactor for a set of keys; keys shorter than MIN_FRAGMENT are matched whole only. */
export function createRedactor(secrets: Iterable<string | undefined>): Redact {
  const grams = new Set<string>();
  const whole: string[] = [];
  /** the keys themselves: a truncated key shows their first or last characters, which count whatever they are */
  const endsOfKeys: string[] = [];
  for (const s of secrets) {
    if (!s) continue;
    if (s.length < MIN_FRAGMENT) {
      whole.push(asciiLower(s));
      continue;
    }
    endsOfKeys.push(asciiLower(s));
    for (const v of spellings(s)) for (let i = 0; i + MIN_FRAGMENT <= v.length; i++) grams.add(v.slice(i, i + MIN_FRAGMENT));
  }
  if (grams.size === 0 && whole.length === 0) return (text) => text;
  return (text) => {
    if (typeof text !== 'string' || text.length === 0) return text;
    const lower = asciiLower(text);
    const hit = new Uint8Array(text.length);
    let any = false;
    for (let i = 0; i + MIN_FRAGMENT <= lower.length; i++) {
      if (grams.has(lower.slice(i, i + MIN_FRAGMENT))) {
        hit.fill(1, i, i + MIN_FRAGMENT);
        any = true;
      }
    }
    for (const w of whole) {
      for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + 1)) {
        hit.fill(1, at, at + w.length);
        any = true;
      }
    }
    if (!any) return text;
    let out = '';
    for (let i = 0; i < text.length;) {
      if (!hit[i]) {
        out += text[i++];
        continue;
      }
      const start = i;
      while (i < text.length && hit[i]) i++;
      const run = text.slice(start, i);
      out +=
        LETTERS_ONLY.test(run) &&
        run.length < MIN_LETTER_RUN &&
        !endsOfKeys.some((v) => v.startsWith(asciiLower(run)) || v.endsWith(asciiLower(run)))
          ? run
          : REDACTED;
    }
    return out;
  };
}

/** Every string inside a parsed JSON value, redacted; a fresh value, the input is left alone. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}

/** Fields of an upstream's own answer that hold what the model generated: relayed unchanged, like canonical text. */
const GENERATED_FIELDS = new Set(['text', 'delta', 'arguments', 'input', 'encrypted_content', 'refusal', 'code', 'result', 'b64_json']);

/**
 * An upstream's own answer or event relayed to a client of its format (same-dialect passthrough): every string is
 * redacted (ids, model names, statuses, error text, whatever field the upstream chose) except the generated content
 * under GENERATED_FIELDS, which passes as the canonical text does.
 */
export function redactNative<T>(value: T, redact: Redact, key = ''): T {
  if (typeof value === 'string') return (GENERATED_FIELDS.has(key) ? value : redact(value)) as T;
  if (Array.isArray(value)) return value.map((v) => redactNative(v, redact, key)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactNative(v, redact, k);
    return out as T;
  }
  return value;
}
