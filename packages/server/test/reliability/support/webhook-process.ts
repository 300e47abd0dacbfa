import { ALPHA_KEY } from '../../support/test-gateway';

/** The knobs a webhook run gives its gateway processes: the loopback receiver's host:port allowed, quick retries. */
export const webhookProcessEnv = (receiverUrl: string): Record<string, string> => ({
  WEBHOOK_ALLOWED_HOSTS: new URL(receiverUrl).host,
  WEBHOOK_RETRY_FIRST_MS: '200',
  WEBHOOK_RETRY_MAX_DELAY_MS: '600',
  WEBHOOK_WORKER_INTERVAL_MS: '50',
});

/** Creates an endpoint for ALPHA_KEY's account; returns its id and secret. */
export async function createEndpoint(baseUrl: string, url: string, events?: string[]): Promise<{ id: string; secret: string }> {
  const res = await fetch(`${baseUrl}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { id: string; secret: string };
  if (res.status !== 200) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export const TERMINAL_EVENTS = ['video.completed', 'video.failed', 'video.cancelled', 'video.expired'];
