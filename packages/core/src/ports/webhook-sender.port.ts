/** One webhook POST: the target's answer, or why there was none (timeout, refused address, network). */
export type WebhookAnswer = { status: number; excerpt: string } | { error: string };

export interface WebhookSender {
  /** `answerBytes`: how much of the answer's body `excerpt` keeps (default 512: a delivery log's excerpt) */
  post(
    url: string,
    req: { headers: Record<string, string>; body: string; timeoutMs: number; answerBytes?: number },
  ): Promise<WebhookAnswer>;
}
