import request from 'supertest';
import type { TestGateway } from './test-gateway';
import type { WebhookReceiver } from './webhook-receiver';

/** The gateway's webhook sender aimed at a receiver on 127.0.0.1, retrying in milliseconds so a test sees retries. */
export const webhooksTo = (rx: WebhookReceiver) => ({
  allowedHosts: [new URL(rx.url).host],
  retry: { firstDelayMs: 200, factor: 2, maxDelayMs: 1000, windowMs: 3_600_000 },
  timeoutMs: 5000,
  intervalMs: 50,
});

/** Registers, as the platform admin, the beta account's endpoint at `rx.url + path` for `events`; its signing secret. */
export async function betaWebhookEndpoint(
  gw: TestGateway,
  adminKey: string,
  rx: WebhookReceiver,
  path: string,
  events: string[],
): Promise<string> {
  const endpoint = await request(gw.app)
    .post('/admin/accounts/beta/webhook_endpoints')
    .set('Authorization', `Bearer ${adminKey}`)
    .send({ url: `${rx.url}${path}`, events });
  expect(endpoint.status).toBe(200);
  return endpoint.body.secret;
}
