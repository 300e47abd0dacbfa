import { BETA_KEY } from './test-gateway';

/**
 * A streamed chat completion asking `model` (behind a held upstream that counts "one two three …") at the gateway on
 * `baseUrl`, read until its first word has arrived; `finish()` reads the rest once the upstream is released.
 */
export async function countingChatStream(baseUrl: string, model: string) {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'count' }] }),
  });
  if (res.status !== 200) throw new Error(`the stream was refused: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let sse = '';
  while (!sse.includes('one')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended early: ${sse}`);
    sse += decoder.decode(value, { stream: true });
  }
  return {
    /** the stream read to its end: the text of its deltas, and whether it closed with `[DONE]` */
    async finish(): Promise<{ text: string; done: boolean }> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        sse += decoder.decode(value, { stream: true });
      }
      const text = sse
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)).choices?.[0]?.delta?.content ?? '')
        .join('');
      return { text, done: sse.includes('data: [DONE]') };
    },
  };
}
