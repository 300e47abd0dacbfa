import { maskFindings } from './detectors-findings';
import { regexDetector } from './regex-detector';
import { requiredLiteral } from './regex-literal';

const mask = (patterns: string[], text: string) => maskFindings(text, regexDetector(patterns).find(text));

describe('regexDetector', () => {
  it('finds every match of every pattern as [REDACTED], kind regex', () => {
    const d = regexDetector(['project\\s+titan', '\\bpassword\\s*[:=]\\s*\\S+']);
    const text = 'the project  titan plan; password: hunter2 ok';
    expect(d.find(text)).toEqual([
      { start: 4, end: 18, kind: 'regex', placeholder: '[REDACTED]' },
      { start: 25, end: 42, kind: 'regex', placeholder: '[REDACTED]' },
    ]);
    expect(mask(['project\\s+titan', '\\bpassword\\s*[:=]\\s*\\S+'], text)).toBe('the [REDACTED] plan; [REDACTED] ok');
  });

  it('honours (?i), and is case-sensitive without it', () => {
    expect(mask(['(?i)confidential'], 'Confidential and CONFIDENTIAL')).toBe('[REDACTED] and [REDACTED]');
    expect(mask(['confidential'], 'Confidential and CONFIDENTIAL')).toBe('Confidential and CONFIDENTIAL');
  });

  it('folds case as RE2 does for non-ASCII texts too (the literal pre-filter steps aside)', () => {
    // RE2 folds the Kelvin sign (U+212A) with k: a lower-cased indexOf would miss it
    expect(mask(['(?i)kill'], 'do not \u212Aill it')).toBe('do not [REDACTED] it');
    expect(mask(['(?i)straße'], 'STRASSE Straße')).toBe('STRASSE [REDACTED]');
  });

  it('reports offsets in UTF-16 code units, as JavaScript strings count', () => {
    const text = 'héllo 😀 secret';
    const [hit] = regexDetector(['secret']).find(text);
    expect(text.slice(hit!.start, hit!.end)).toBe('secret');
  });

  it('skips empty matches and merges overlapping matches of different patterns (longest wins)', () => {
    expect(regexDetector(['x*']).find('abc')).toEqual([]);
    expect(mask(['abc', 'abcdef'], 'zabcdefz')).toBe('z[REDACTED]z');
  });

  it('finishes a catastrophic pattern for a backtracking engine at once: (a+)+$ on 30 a and a !', () => {
    const started = process.hrtime.bigint();
    expect(regexDetector(['(a+)+$', '(x+x+)+y']).find(`${'a'.repeat(30)}!${'x'.repeat(5000)}`)).toEqual([]);
    // V8 would take minutes on either; RE2 is linear (a generous bound: the machine is shared)
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
  });

  it('throws an Error naming the bad pattern: syntax errors and Perl-only features RE2 refuses', () => {
    expect(() => regexDetector(['fine', '(unclosed'])).toThrow(/regex pattern "\(unclosed" is not valid RE2 syntax/);
    expect(() => regexDetector(['(?<=a)b'])).toThrow(/"\(\?<=a\)b"/);
    expect(() => regexDetector(['(a)\\1'])).toThrow(/"\(a\)\\\\1"/);
  });
});

describe('requiredLiteral (the pre-filter)', () => {
  it.each([
    ['project\\s+titan', { text: 'project', caseInsensitive: false }],
    ['(?i)Confidential', { text: 'confidential', caseInsensitive: true }],
    ['ab?cdef', { text: 'cdef', caseInsensitive: false }],
    ['abcx*y', { text: 'abc', caseInsensitive: false }],
    ['abcd+e', { text: 'abcd', caseInsensitive: false }],
    ['pass\\.word[0-9]{2,}', { text: 'pass.word', caseInsensitive: false }],
    ['ab{2}cdefg', { text: 'cdefg', caseInsensitive: false }],
    ['x(?i:Secret)yz', { text: 'yz', caseInsensitive: true }],
  ])('%s needs %j', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toEqual(literal);
  });

  it.each(['foo|bar', '\\x41BC', '\\QABC\\E', '\\pLabc', '.*', '[abc]+'])('%s yields none, so the pattern always runs', (pattern) => {
    expect(requiredLiteral(pattern)).toBeUndefined();
  });

  it('never filters out a text the pattern matches', () => {
    const cases: Array<[string, string]> = [
      ['ab?cdef', 'acdef'],
      ['abcx*y', 'abcy'],
      ['a{0}bcd', 'bcd'],
      ['(?i)TITAN', 'titan'],
      ['x{y', 'x{y'],
    ];
    for (const [pattern, text] of cases) expect(regexDetector([pattern]).find(text)).toHaveLength(1);
  });
});
