import type { Finding, PiiEntity, TextDetector } from './detectors-findings';
import { resolveOverlaps } from './detectors-findings';
import { findEmails } from './pii-email';
import { ibanValid, jwtHeaderValid, luhnValid, ssnValid } from './pii-checks';

export const PII_ENTITIES: readonly PiiEntity[] = ['email', 'phone', 'card', 'iban', 'ssn', 'secret', 'jwt'];

export const PII_PLACEHOLDERS: Readonly<Record<PiiEntity, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  card: '[CARD]',
  iban: '[IBAN]',
  ssn: '[SSN]',
  secret: '[SECRET]',
  jwt: '[SECRET]',
};

const finding = (start: number, end: number, kind: PiiEntity): Finding => ({ start, end, kind, placeholder: PII_PLACEHOLDERS[kind] });

/*
 * Every pattern here is written to run in linear time on V8's backtracking engine: each repetition is delimited by a
 * character the next one cannot start with, and the digit rules run only at the start of a run of digits. The user's
 * own patterns go through RE2 instead (regex-detector.ts).
 */

/**
 * A run of eight digits or more with at most two separators between any two: every phone, card and SSN lies in one
 * (the shortest, `+` and a country code and six digits). Years, prices and counts are shorter and cost one failed try.
 */
const NUMERIC_SPAN = /[+(]?\d(?:[ .()-]{0,2}\d){7,}/g;

const SSN = /(?<![\w-])(\d{3})-(\d{2})-(\d{4})(?![\w-])/y;
/** Contiguous 13-19 digits, 4-4-4-1..4(-3) groups, or the 4-6-4/5 groups of Amex and Diners, on one separator. */
const CARD = /(?<![\w.-]|\d[ -])[2-6](?:\d{12,18}|\d{3}([ -])\d{4}\1\d{4}\1\d{1,4}(?:\1\d{3})?|\d{3}([ -])\d{6}\2\d{4,5})(?!\w|[ .-]\d)/y;
/** `+` and a country code, then 7-14 more digits with single separators. */
const PHONE_INTERNATIONAL = /(?<![\w+])\+[1-9](?:[ .()-]{0,2}\d){6,14}(?!\w|[ .()-]{1,2}\d)/y;
/** North American (415) 555-2671, 415-555-2671, 415.555.2671, 415 555 2671, with or without a leading 1. */
const PHONE_NANP = /(?<![\w+.-]|\d[ -])(?:1[-. ]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}([-. ]))\d{3}(?:\1|[-. ])\d{4}(?!\w|[-. ]\d)/y;
/** A trunk-prefix national number in groups: 020 7946 0958, 01 23 45 67 89, 030 1234567, 07700 900123. */
const PHONE_TRUNK = /(?<![\w+.-]|\d[ -])0\d{1,4}(?:[ -]\d{2,7}){1,4}(?!\w|[ .-]\d)/y;

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) n++;
  return n;
}

function sticky(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

function findNumbers(text: string, want: ReadonlySet<PiiEntity>, out: Finding[]): void {
  NUMERIC_SPAN.lastIndex = 0;
  for (let span = NUMERIC_SPAN.exec(text); span; span = NUMERIC_SPAN.exec(text)) {
    const end = span.index + span[0].length;
    // candidate starts: the span's start and every digit group after a separator
    for (let at = span.index; at < end; at++) {
      const c = text.charCodeAt(at);
      const isStart = at === span.index || (c >= 48 && c <= 57 && !(text.charCodeAt(at - 1) >= 48 && text.charCodeAt(at - 1) <= 57));
      if (!isStart) continue;
      if (want.has('ssn')) {
        const m = sticky(SSN, text, at);
        if (m && ssnValid(m[1]!, m[2]!, m[3]!)) out.push(finding(at, at + m[0].length, 'ssn'));
      }
      if (want.has('card')) {
        const m = sticky(CARD, text, at);
        if (m) {
          const digits = m[0].replace(/[ -]/g, '');
          if (luhnValid(digits)) out.push(finding(at, at + m[0].length, 'card'));
        }
      }
      if (want.has('phone')) {
        const m =
          (c === 43 /* + */ && sticky(PHONE_INTERNATIONAL, text, at)) ||
          sticky(PHONE_NANP, text, at) ||
          (c === 48 /* 0 */ && sticky(PHONE_TRUNK, text, at));
        if (m) {
          const n = digitCount(m[0]);
          if (m[0][0] === '+' ? n >= 8 && n <= 15 : m[0][0] === '0' ? n >= 10 && n <= 11 : true)
            out.push(finding(at, at + m[0].length, 'phone'));
        }
      }
    }
  }
}

/** Country code, check digits, then 11-30 letters and digits, written whole or in groups of four. */
const IBAN = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![A-Za-z0-9])/g;

function findIbans(text: string, out: Finding[]): void {
  IBAN.lastIndex = 0;
  for (let m = IBAN.exec(text); m; m = IBAN.exec(text)) {
    // a group of four capitals after the IBAN (`… 0130 00 THEN`) may have been taken in: drop trailing groups
    let candidate = m[0];
    while (candidate.length >= 15) {
      if (ibanValid(candidate.replace(/ /g, ''))) {
        out.push(finding(m.index, m.index + candidate.length, 'iban'));
        break;
      }
      const lastSpace = candidate.lastIndexOf(' ');
      if (lastSpace < 0) break;
      candidate = candidate.slice(0, lastSpace);
    }
  }
}

/**
 * Providers' API keys by their documented prefixes: OpenAI `sk-`/`sk-proj-` (Anthropic's `sk-ant-` too), Stripe
 * `sk_live_`/`rk_live_` (and test keys), AWS access key ids, GitHub tokens, Google API keys, Slack tokens.
 */
const SECRET =
  /(?<![A-Za-z0-9_-])(?:sk-[A-Za-z0-9_-]{20,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|(?:AKIA|ASIA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|AIza[0-9A-Za-z_-]{35}|xox[bpas]-[A-Za-z0-9-]{10,})(?![A-Za-z0-9_-])/g;
const PEM_BEGIN = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----/g;
const PEM_BODY = /[A-Za-z0-9+/=\s:,-]*/y;

function findSecrets(text: string, out: Finding[]): void {
  SECRET.lastIndex = 0;
  for (let m = SECRET.exec(text); m; m = SECRET.exec(text)) {
    // a long hyphenated word after `sk-` is prose; a key's random body has digits
    if (m[0].startsWith('sk-') && !/\d/.test(m[0])) continue;
    out.push(finding(m.index, m.index + m[0].length, 'secret'));
  }
  if (!text.includes('-----BEGIN ')) return;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const endMarker = `-----END ${m[1]}PRIVATE KEY-----`;
    const endAt = text.indexOf(endMarker, m.index + m[0].length);
    let end: number;
    if (endAt >= 0) end = endAt + endMarker.length;
    else {
      // cut off (a stream, a truncated paste): the header and the key material that follows it
      PEM_BODY.lastIndex = m.index + m[0].length;
      PEM_BODY.exec(text);
      end = PEM_BODY.lastIndex;
    }
    out.push(finding(m.index, end, 'secret'));
    PEM_BEGIN.lastIndex = end;
  }
}

/** Three base64url parts, the header an encoded JSON object (`eyJ` is `{"`). */
const JWT = /(?<![A-Za-z0-9_-])(eyJ[A-Za-z0-9_-]{5,})\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*(?![A-Za-z0-9_-])/g;

function findJwts(text: string, out: Finding[]): void {
  JWT.lastIndex = 0;
  for (let m = JWT.exec(text); m; m = JWT.exec(text)) if (jwtHeaderValid(m[1]!)) out.push(finding(m.index, m.index + m[0].length, 'jwt'));
}

/**
 * Personal data and credentials (issue 38): e-mail addresses, phone numbers (international `+` forms, North American
 * and trunk-prefix national forms; not bare digit runs, years, prices or ids), payment cards (Luhn), IBANs (mod 97),
 * US SSNs (issued ranges only), providers' API keys and PEM private keys, JWTs. `entities` absent means all.
 */
export function piiDetector(entities: readonly PiiEntity[] = PII_ENTITIES): TextDetector {
  for (const e of entities) if (!PII_ENTITIES.includes(e)) throw new Error(`unknown pii entity ${JSON.stringify(e)}`);
  const want = new Set(entities);
  const numbers = want.has('phone') || want.has('card') || want.has('ssn');
  return {
    find(text: string): Finding[] {
      const out: Finding[] = [];
      if (want.has('email')) findEmails(text, out, PII_PLACEHOLDERS.email);
      if (numbers) findNumbers(text, want, out);
      if (want.has('iban')) findIbans(text, out);
      if (want.has('secret')) findSecrets(text, out);
      if (want.has('jwt')) findJwts(text, out);
      return resolveOverlaps(out);
    },
  };
}
