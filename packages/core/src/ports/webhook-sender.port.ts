/** One webhook POST: the target's answer, or why there was none (timeout, refused address, network). */
export type WebhookAnswer = { status: number; excerpt: string } | { error: string };

export interface WebhookSender {
  post(url: string, req: { headers: Record<string, string>; body: string; timeoutMs: number }): Promise<WebhookAnswer>;
}
