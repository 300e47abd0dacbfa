import { call } from './api';
import { takeSseData } from './sse';

interface ChatChunk {
  choices?: Array<{ delta?: { content?: string } }>;
  error?: { message?: string };
}

/**
 * POST /v1/chat/completions with `stream: true`, calling `onText` with each content delta as it arrives (server-sent
 * events ended by `data: [DONE]`). An error event mid-stream rejects with its message.
 */
export async function streamChat(key: string, model: string, content: string, onText: (delta: string) => void): Promise<void> {
  const res = await call(key, '/v1/chat/completions', {
    method: 'POST',
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const { data, rest } = takeSseData(buffer + value);
    buffer = rest;
    for (const d of data) {
      if (d === '[DONE]') return;
      const event = JSON.parse(d) as ChatChunk;
      if (event.error) throw new Error(event.error.message ?? 'The stream failed.');
      const delta = event.choices?.[0]?.delta?.content;
      if (delta) onText(delta);
    }
  }
}
