import { embeddingTexts } from './embedding-texts';

describe('embeddingTexts', () => {
  it('passes texts and refuses token arrays naming input', () => {
    expect(embeddingTexts({ model: 'm', inputs: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(() => embeddingTexts({ model: 'm', inputs: ['a', [1, 2]] })).toThrow(
      expect.objectContaining({ param: 'input', code: 'token_arrays_unsupported' }),
    );
  });
});
