import type { TextDetector } from './detectors-findings';
import { piiDetector } from './pii-detector';
import { regexDetector } from './regex-detector';
import { StreamWindow, type WindowStage } from './stream-window';

/** Feeds `deltas`, returns what was released and the finding that stopped the stream. */
function run(detector: TextDetector, deltas: string[], holdback?: number) {
  const w = new StreamWindow(blocking(detector), holdback);
  let released = '';
  for (const d of deltas) {
    const step = w.push(d);
    released += step.release;
    if (step.blocked) return { released, finding: step.blocked.finding };
  }
  const last = w.end();
  return { released: released + last.release, finding: last.blocked?.finding };
}

const blocking = (detector: TextDetector): WindowStage[] => [{ detector, mode: 'block' }];

const chars = (s: string) => [...s];

describe('StreamWindow', () => {
  it('releases a clean stream whole, holding back at most `holdback` characters at any time', () => {
    const text = 'lorem ipsum dolor sit amet, '.repeat(40);
    const w = new StreamWindow(blocking(piiDetector()), 256);
    let released = '';
    let fed = 0;
    for (const d of text.match(/.{1,7}/gs)!) {
      fed += d.length;
      released += w.push(d).release;
      expect(fed - released.length).toBeLessThanOrEqual(256);
    }
    expect(released + w.end().release).toBe(text);
  });

  it('finds an e-mail address sent one character at a time and releases nothing of it', () => {
    const text = 'write to bob.smith@example.com today';
    const { released, finding } = run(piiDetector(), chars(text));
    expect(released).toBe('write to ');
    expect(finding).toEqual({ start: 9, end: 30, kind: 'email', placeholder: '[EMAIL]' });
  });

  it('finds a match split over chunk boundaries when the text before it is longer than the holdback', () => {
    const prefix = 'x'.repeat(1000) + ' ';
    const deltas = [prefix.slice(0, 600), prefix.slice(600) + 'the proj', 'ect ti', 'tan is on'];
    const { released, finding } = run(regexDetector(['project titan']), deltas, 256);
    expect(released).toBe(`${prefix}the `);
    expect(finding).toMatchObject({ start: 1005, end: 1018, kind: 'regex' });
  });

  it('finds a match straddling the holdback boundary, fed one character at a time, with a small holdback', () => {
    const text = `${'a '.repeat(30)}card 4111 1111 1111 1111 ok`;
    const { released, finding } = run(piiDetector(['card']), chars(text), 24);
    expect(released).toBe(`${'a '.repeat(30)}card `);
    expect(text.slice(finding!.start, finding!.end)).toBe('4111 1111 1111 1111');
  });

  it('waits for a match at the end of what has arrived: it may grow (an address half sent)', () => {
    const w = new StreamWindow(blocking(piiDetector(['email'])), 256);
    expect(w.push('mail bob@example.co')).toEqual({ release: '', hits: [] });
    const step = w.push('m.au and more');
    expect(step.release).toBe('mail ');
    expect(step.blocked?.finding).toMatchObject({ start: 5, end: 23 });
  });

  it('reports a growing match once holding it would exceed the holdback', () => {
    const w = new StreamWindow(blocking(regexDetector(['z+'])), 8);
    let released = '';
    let step = w.push('ab');
    for (let i = 0; i < 20 && !step.blocked?.finding; i++) {
      released += step.release;
      step = w.push('z');
    }
    released += step.release;
    expect(released).toBe('ab');
    expect(step.blocked?.finding).toMatchObject({ start: 2 });
  });

  it('scans the rest on end(): a match in the last held characters is still found', () => {
    const { released, finding } = run(piiDetector(), ['SSN is 123-', '45-6789']);
    expect(released).toBe('SSN is ');
    expect(finding).toMatchObject({ kind: 'ssn', start: 7, end: 18 });
  });

  it('releases nothing after a finding', () => {
    const w = new StreamWindow(blocking(regexDetector(['secret'])), 4);
    expect(w.push('a secret b').blocked).toBeDefined();
    expect(w.push('more text')).toEqual({ release: '', hits: [] });
    expect(w.end()).toEqual({ release: '', hits: [] });
  });

  it('never splits a surrogate pair between release and hold', () => {
    const w = new StreamWindow(blocking(regexDetector(['nothing'])), 3);
    const step = w.push('ab😀cd');
    // 'ab😀cd' is 6 code units; the cut at 3 would fall inside the emoji
    expect(step.release).toBe('ab');
    expect(w.end().release).toBe('😀cd');
  });

  it('scans only the held window and the delta on each push, not the whole stream', () => {
    const scanned: number[] = [];
    const counting: TextDetector = { find: (t) => (scanned.push(t.length), []) };
    const w = new StreamWindow(blocking(counting), 256);
    for (let i = 0; i < 2000; i++) w.push('abcde');
    // the holdback, the delta and 32 released characters of context
    expect(Math.max(...scanned)).toBeLessThanOrEqual(256 + 5 + 32);
  });

  it('keeps released characters as context: a word boundary or a digit before the window is seen', () => {
    // `xfoo`: no word boundary before foo, though the window's cut may fall right before it
    const word = run(regexDetector(['\\bfoo\\b']), chars(`${'y'.repeat(40)}xfoo bar`), 8);
    expect(word.finding).toBeUndefined();
    expect(word.released).toBe(`${'y'.repeat(40)}xfoo bar`);
    // a card number preceded by another digit group is part of a list of numbers, not a card
    const list = run(piiDetector(['card']), chars(`ids 1 4111 1111 1111 1111 end`), 20);
    expect(list.finding).toBeUndefined();
    // and the same card alone is found with the same holdback
    expect(run(piiDetector(['card']), chars(`ids: 4111 1111 1111 1111 end`), 20).finding).toMatchObject({ start: 5, end: 24 });
  });

  it('holds back at most `holdback` characters for several stages together, releasing a placeholder whole', () => {
    const stages: WindowStage[] = [
      { detector: regexDetector(['forbidden']), mode: 'block' },
      { detector: piiDetector(['email']), mode: 'mask' },
      { detector: regexDetector(['(?i)note']), mode: 'log' },
    ];
    const text = `${'a note, '.repeat(6)}mail ann@example.org ${'then more '.repeat(8)}`;
    const w = new StreamWindow(stages, 16);
    const released: string[] = [];
    let fed = 0;
    const hits = new Set<number>();
    for (const c of chars(text)) {
      fed += 1;
      const step = w.push(c);
      released.push(step.release);
      step.hits.forEach((h) => hits.add(h));
      // until the e-mail is released, what was released is the text as it came
      if (!released.join('').includes('[EMAIL]')) expect(fed - released.join('').length).toBeLessThanOrEqual(16);
    }
    released.push(w.end().release);
    expect(released.join('')).toBe(text.replace('ann@example.org', '[EMAIL]'));
    // the placeholder comes out in one piece: the release point moved past the match that straddled it
    expect(released.some((r) => r.includes('[EMAIL]'))).toBe(true);
    expect([...hits].sort()).toEqual([1, 2]);
  });

  it('finds what a scan of the whole text finds, for any chunking', () => {
    const text = `Hi, I am Jane (jane.doe@example.org), card 5555 5555 5555 4444, ${'filler text '.repeat(30)} call +44 20 7946 0958.`;
    const detector = piiDetector();
    const whole = detector.find(text);
    for (const size of [1, 2, 3, 7, 50, 1000]) {
      const deltas = text.match(new RegExp(`[^]{1,${size}}`, 'g'))!;
      // a stream that stops at the first finding: it must be the whole text's first
      const { released, finding } = run(detector, deltas, 64);
      expect(finding).toEqual(whole[0]);
      expect(released).toBe(text.slice(0, whole[0]!.start));
    }
  });
});
