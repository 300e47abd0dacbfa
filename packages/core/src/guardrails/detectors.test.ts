import { combineDetectors, maskFindings, piiDetector, regexDetector, resolveOverlaps, type Finding } from './detectors';

const f = (start: number, end: number, kind = 'x'): Finding => ({ start, end, kind, placeholder: `[${kind.toUpperCase()}]` });

describe('resolveOverlaps', () => {
  it('sorts findings and keeps the longer of two that overlap', () => {
    expect(resolveOverlaps([f(10, 12, 'b'), f(0, 4, 'a'), f(2, 9, 'c')])).toEqual([f(2, 9, 'c'), f(10, 12, 'b')]);
  });

  it('keeps the earlier of two equally long overlapping findings, and findings that only touch', () => {
    expect(resolveOverlaps([f(3, 6, 'b'), f(1, 4, 'a'), f(6, 8, 'c')])).toEqual([f(1, 4, 'a'), f(6, 8, 'c')]);
  });
});

describe('maskFindings', () => {
  it('replaces each finding with its placeholder and keeps the text between', () => {
    expect(maskFindings('mail a@b.io or c@d.io.', [f(5, 11, 'email'), f(15, 21, 'email')])).toBe('mail [EMAIL] or [EMAIL].');
  });

  it('returns the text itself without findings, and masks at both ends', () => {
    expect(maskFindings('plain', [])).toBe('plain');
    expect(maskFindings('abc', [f(0, 1, 'x'), f(2, 3, 'y')])).toBe('[X]b[Y]');
  });
});

describe('combineDetectors', () => {
  it('merges several detectors: a regex hit inside a secret is reported once, as the longer secret', () => {
    const key = 'sk-proj-abc123DEF456ghi789JKL0';
    const d = combineDetectors([piiDetector(['secret']), regexDetector(['DEF456'])]);
    const text = `key ${key} and DEF456 alone`;
    expect(maskFindings(text, d.find(text))).toBe('key [SECRET] and [REDACTED] alone');
  });
});
