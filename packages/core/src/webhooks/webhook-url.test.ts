import { isGatewayError } from '../errors';
import { checkWebhookUrl, parseAllowedHosts } from './webhook-url';

const none = { allowedHosts: [] };
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isGatewayError(e) ? `${e.status} ${e.code}` : String(e);
  }
  return 'accepted';
};

describe('webhook target URLs', () => {
  it('takes public https URLs', () => {
    expect(checkWebhookUrl('https://hooks.example.com/x?y=1', none).toString()).toBe('https://hooks.example.com/x?y=1');
  });

  it.each([
    ['http://hooks.example.com/', '400 invalid_webhook_url'],
    ['ftp://hooks.example.com/', '400 invalid_webhook_url'],
    ['https://u:p@hooks.example.com/', '400 invalid_webhook_url'],
    ['not a url', '400 invalid_webhook_url'],
    ['https://127.0.0.1/', '400 forbidden_webhook_url'],
    ['https://[::1]/', '400 forbidden_webhook_url'],
    ['https://169.254.169.254/latest', '400 forbidden_webhook_url'],
    ['https://10.1.2.3/', '400 forbidden_webhook_url'],
    ['https://localhost/', '400 forbidden_webhook_url'],
  ])('refuses %s', (url, code) => {
    expect(codeOf(() => checkWebhookUrl(url, none))).toBe(code);
  });

  it('refuses what is not a string', () => {
    expect(codeOf(() => checkWebhookUrl(42, none))).toBe('400 invalid_webhook_url');
  });

  it("allows listed host:port pairs over http or https, a bare host on its scheme's default port only", () => {
    const rule = { allowedHosts: parseAllowedHosts(' 127.0.0.1:9999 , Hooks.Local,[::1]:8080, ::2, [::3]') };
    expect(rule.allowedHosts).toEqual(['127.0.0.1:9999', 'hooks.local', '[::1]:8080', '[::2]', '[::3]']);
    expect(codeOf(() => checkWebhookUrl('http://127.0.0.1:9999/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('https://127.0.0.1:9999/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://127.0.0.1:9998/hook', rule))).toBe('400 invalid_webhook_url');
    expect(codeOf(() => checkWebhookUrl('https://127.0.0.1:9998/hook', rule))).toBe('400 forbidden_webhook_url');
    expect(codeOf(() => checkWebhookUrl('http://127.0.0.1/hook', rule))).toBe('400 invalid_webhook_url');
    // bare host: 80 over http, 443 over https, nothing else
    expect(codeOf(() => checkWebhookUrl('http://hooks.local/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://hooks.local:80/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('https://hooks.local/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://hooks.local:443/hook', rule))).toBe('400 invalid_webhook_url');
    expect(codeOf(() => checkWebhookUrl('http://hooks.local:8080/hook', rule))).toBe('400 invalid_webhook_url');
    expect(codeOf(() => checkWebhookUrl('http://[::1]:8080/', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://[::1]/', rule))).toBe('400 invalid_webhook_url');
    expect(codeOf(() => checkWebhookUrl('http://[::2]/', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://127.0.0.2/', rule))).toBe('400 invalid_webhook_url');
    expect(codeOf(() => checkWebhookUrl('https://127.0.0.2/', rule))).toBe('400 forbidden_webhook_url');
  });

  it.each(['host:port', 'host:0', 'host:70000', '[::1', '[::1]x', 'a b', 'user@host'])('refuses the entry %s at start-up', (entry) => {
    expect(() => parseAllowedHosts(entry)).toThrow(/WEBHOOK_ALLOWED_HOSTS/);
  });
});
