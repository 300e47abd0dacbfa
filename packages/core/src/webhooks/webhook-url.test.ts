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

  it('allows listed hosts, over http too, and only those', () => {
    const rule = { allowedHosts: parseAllowedHosts(' 127.0.0.1 , Hooks.Local,[::1]') };
    expect(rule.allowedHosts).toEqual(['127.0.0.1', 'hooks.local', '::1']);
    expect(codeOf(() => checkWebhookUrl('http://127.0.0.1:9999/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://hooks.local/hook', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://[::1]:80/', rule))).toBe('accepted');
    expect(codeOf(() => checkWebhookUrl('http://127.0.0.2/', rule))).toBe('400 invalid_webhook_url');
    expect(codeOf(() => checkWebhookUrl('https://127.0.0.2/', rule))).toBe('400 forbidden_webhook_url');
  });
});
