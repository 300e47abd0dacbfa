import { decodeModerationInput, encodeModerationResponse } from './moderations.codec';

describe('moderations codec', () => {
  it('reads a string, strings (one item each) and the parts of one input (one item)', () => {
    expect(decodeModerationInput('hi')).toEqual([[{ type: 'text', text: 'hi' }]]);
    expect(decodeModerationInput(['a', 'b'])).toEqual([[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }]]);
    expect(
      decodeModerationInput([
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      ]),
    ).toEqual([
      [
        { type: 'text', text: 'look' },
        { type: 'image', url: 'https://example.com/a.png' },
      ],
    ]);
  });

  it("answers in OpenAI's shape", () => {
    const v = { flagged: true, categories: { violence: true }, scores: { violence: 0.9 }, appliedInputTypes: { violence: ['text'] } };
    expect(encodeModerationResponse('modr-1', 'omni-moderation-latest', [v])).toEqual({
      id: 'modr-1',
      model: 'omni-moderation-latest',
      results: [
        {
          flagged: true,
          categories: { violence: true },
          category_scores: { violence: 0.9 },
          category_applied_input_types: { violence: ['text'] },
        },
      ],
    });
  });
});
