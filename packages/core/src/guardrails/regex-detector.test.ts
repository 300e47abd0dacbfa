import { RE2JS } from 're2js';
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

  it('folds case as RE2 does, the two non-ASCII letters it folds to ASCII ones included', () => {
    // RE2 folds the Kelvin sign (U+212A) with k: a lower-cased indexOf would miss it
    expect(mask(['(?i)kill'], 'do not \u212Aill it')).toBe('do not [REDACTED] it');
    // and the long s (U+017F) with s, which toLowerCase leaves alone: the pre-filter must step aside
    expect(mask(['(?i)secret'], 'a \u017Fecret plan')).toBe('a [REDACTED] plan');
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
    ['project\\s+titan', { text: 'project', caseInsensitive: false, maxOffset: 0 }],
    ['(?i)Confidential', { text: 'confidential', caseInsensitive: true, maxOffset: 0 }],
    ['ab?cdef', { text: 'cdef', caseInsensitive: false, maxOffset: 2 }],
    ['abcx*y', { text: 'abc', caseInsensitive: false, maxOffset: 0 }],
    ['abcd+e', { text: 'abcd', caseInsensitive: false, maxOffset: 0 }],
    ['\\bpass\\.word[0-9]{2,}', { text: 'pass.word', caseInsensitive: false, maxOffset: 2 }],
    ['ab{2}cdefg', { text: 'cdefg', caseInsensitive: false, maxOffset: Infinity }],
    ['x(?i:Secret)yz', { text: 'yz', caseInsensitive: true, maxOffset: Infinity }],
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

describe('regexDetector against RE2 itself', () => {
  // the pre-filter and the skipping ahead must change nothing: the same matches as RE2's matcher over the whole text
  const patterns = [
    '\\bconfidential\\b',
    '(?i)project\\s+titan',
    'a.?b.?secret',
    '(?i)x[0-9]secret\\b',
    'code-\\d+',
    '^start',
    '(?m)^line',
    'é+tat',
    '(?i)kelvin',
  ];
  const texts = [
    'confidential',
    'zz xconfidential confidential',
    'xconfidential confidential confidentiality, Confidential. confidential',
    'the PROJECT titan and project  Titan; projecttitan',
    'ab secret, aXbYsecret, a😀b😀secret, secret',
    'X1SECRET x2secretx x3secret',
    'code-1 code- code-22 code-333',
    'start start',
    'line one\nline two\n line three',
    'état éétat tat',
    '\u212Aelvin, İ Kelvin kelvin',
  ];
  it.each(patterns)('%s finds what RE2 finds', (pattern) => {
    const re = RE2JS.compile(pattern);
    for (const text of texts) {
      const expected: Array<[number, number]> = [];
      const m = re.matcher(text);
      while (m.find()) if (m.end() > m.start()) expected.push([m.start(), m.end()]);
      expect([
        text,
        regexDetector([pattern])
          .find(text)
          .map((f) => [f.start, f.end]),
      ]).toEqual([text, expected]);
    }
  });
});
