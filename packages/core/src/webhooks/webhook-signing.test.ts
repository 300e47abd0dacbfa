import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from './webhook-signing';

describe('Standard Webhooks signing', () => {
  it('makes whsec_ + base64 of 32 random bytes, different each time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('signs so that the standardwebhooks package verifies it, and a changed body fails', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'video.completed' });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signWebhook(secret, 'evt_1', ts, body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const wh = new Webhook(secret);
    expect(wh.verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => wh.verify(body + ' ', { ...headers })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('refuses a secret without the whsec_ prefix', () => {
    expect(() => signWebhook('plain', 'evt_1', 1, '{}')).toThrow(/whsec_/);
  });
});
