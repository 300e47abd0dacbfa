import type { Finding } from './detectors-findings';

const LOCAL_MAX = 64;

/** Letters, digits and the punctuation addresses use in practice (RFC 5322 allows more; nobody writes it). */
function isLocal(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
}
function isDomain(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/**
 * E-mail addresses, found from each `@` outwards (a text without one costs one indexOf): a local part before it, a
 * domain of dot-separated labels after it ending in a top-level domain of two letters or more.
 */
export function findEmails(text: string, out: Finding[], placeholder: string): void {
  let next = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', Math.max(at + 1, next))) {
    let start = at;
    while (start > 0 && at - start < LOCAL_MAX && isLocal(text.charCodeAt(start - 1))) start--;
    while (start < at && text.charCodeAt(start) === 46) start++;
    if (start === at) continue;
    let end = at + 1;
    while (end < text.length && isDomain(text.charCodeAt(end))) end++;
    // a sentence's full stop or a dash after the address is not part of it
    while (end > at + 1 && (text.charCodeAt(end - 1) === 46 || text.charCodeAt(end - 1) === 45)) end--;
    const domain = text.slice(at + 1, end);
    const dot = domain.lastIndexOf('.');
    if (dot <= 0 || domain.includes('..') || domain.startsWith('-')) continue;
    let tld = 0;
    for (let i = dot + 1; i < domain.length; i++) {
      if (!isLetter(domain.charCodeAt(i))) {
        tld = 0;
        break;
      }
      tld++;
    }
    if (tld < 2) continue;
    out.push({ start, end, kind: 'email', placeholder });
    next = end;
  }
}
