import { maskSecrets } from './audit-mask';

describe('maskSecrets', () => {
  it('masks secret-looking fields at any depth, keeps env references and everything else', () => {
    const masked = maskSecrets({
      id: 'key_1',
      key: 'sk-live-123',
      nested: { apiKey: 'sk-upstream', api_key: 'env:OPENAI_KEY', secret: 'whsec_x', name: 'n' },
      list: [{ token: 't' }, 'plain'],
      hash: null,
    });
    expect(masked).toEqual({
      id: 'key_1',
      key: '(masked)',
      nested: { apiKey: '(masked)', api_key: 'env:OPENAI_KEY', secret: '(masked)', name: 'n' },
      list: [{ token: '(masked)' }, 'plain'],
      hash: null,
    });
    expect(JSON.stringify(masked)).not.toMatch(/sk-live|sk-upstream|whsec_x/);
  });
});
