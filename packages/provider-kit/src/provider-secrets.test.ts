import { providerSecrets } from './redacting-ports';
import { createRedactor } from './secret-redactor';

describe('providerSecrets', () => {
  it("gives the redactor an entry's apiKey and its credential-length header values", () => {
    const entry = { apiKey: 'sk-api-key-000001', options: { headers: { 'api-key': 'azure-key-Qw3Er5Ty', 'x-version': 'v2' } } };
    expect(providerSecrets(entry)).toEqual(['sk-api-key-000001', 'azure-key-Qw3Er5Ty']);
    const redact = createRedactor(providerSecrets(entry));
    // an upstream quoting the header it got: cut out; a short setting value stays readable
    expect(redact('bad api-key azure-key-Qw3Er5Ty (x-version v2)')).toBe('bad api-key [redacted] (x-version v2)');
  });
});
