import { MODERATION_CATEGORIES } from '@gateway/provider-kit';
import { MODERATION_WORDS, moderateWords } from './moderation-words';

describe('simulator moderation (fixed word lists)', () => {
  it('flags the contract words: kill → violence, idiot → harassment, suicide → self-harm', () => {
    expect(moderateWords(['I will kill the process']).categories.violence).toBe(true);
    expect(moderateWords(['you idiot']).categories.harassment).toBe(true);
    expect(moderateWords(['thinking about suicide']).categories['self-harm']).toBe(true);
    expect(moderateWords(['Kill, IDIOT!']).flagged).toBe(true);
  });

  it('can trigger every category with its own words', () => {
    for (const c of MODERATION_CATEGORIES) {
      const v = moderateWords([`well ${MODERATION_WORDS[c][0]} then`]);
      expect([c, v.categories[c]]).toEqual([c, true]);
      expect(v.scores[c]).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('leaves clean text unflagged with all 13 categories scored', () => {
    const v = moderateWords(['a skillful killer whale? no: a dolphin']);
    expect(v.flagged).toBe(false);
    expect(Object.keys(v.scores)).toEqual([...MODERATION_CATEGORIES]);
    expect(Object.values(v.scores).every((s) => s > 0 && s < 0.5)).toBe(true);
    expect(v.appliedInputTypes.harassment).toEqual(['text']);
  });

  it('says which input types each category applied to', () => {
    const both = moderateWords(['hello'], true);
    expect(both.appliedInputTypes.violence).toEqual(['text', 'image']);
    expect(both.appliedInputTypes.harassment).toEqual(['text']);
    const image = moderateWords([], true);
    expect(image.appliedInputTypes.sexual).toEqual(['image']);
    expect(image.appliedInputTypes.hate).toEqual([]);
    expect(image.flagged).toBe(false);
  });

  it('scores more hits higher, and the same text the same way', () => {
    expect(moderateWords(['kill and murder']).scores.violence).toBeGreaterThan(moderateWords(['kill']).scores.violence);
    expect(moderateWords(['kill'])).toEqual(moderateWords(['kill']));
  });
});
