import { maskSecrets } from './audit-mask';
import { credentialHeaders, mapCredentialHeaders } from './provider-credentials';

describe('provider credentials in options.headers', () => {
  const entry = {
    type: 'openai-compatible',
    options: { chatPath: '/c', headers: { 'api-key': 'azure-secret', Authorization: 'Bearer sk-x' } },
  };

  it('reads every string header value as a credential, and maps them without touching the entry', () => {
    expect(credentialHeaders(entry)).toEqual({ 'api-key': 'azure-secret', Authorization: 'Bearer sk-x' });
    expect(credentialHeaders({ options: { headers: 'nope' } })).toEqual({});
    expect(credentialHeaders(null)).toEqual({});
    const mapped = mapCredentialHeaders(entry, (v, name) => (name === 'Authorization' ? undefined : v.toUpperCase()));
    expect(mapped).toEqual({ type: 'openai-compatible', options: { chatPath: '/c', headers: { 'api-key': 'AZURE-SECRET' } } });
    expect(entry.options.headers['api-key']).toBe('azure-secret');
    expect(mapCredentialHeaders({ apiKey: 'k' }, () => 'x')).toEqual({ apiKey: 'k' });
  });

  it('masks every header value in an audit snapshot, keeping the names', () => {
    const masked = maskSecrets({ id: 'azure', options: entry.options });
    expect(masked).toEqual({ id: 'azure', options: { chatPath: '/c', headers: { 'api-key': '(masked)', Authorization: '(masked)' } } });
  });
});
