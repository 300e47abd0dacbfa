import { call } from './api';

/**
 * POST /v1/chat/completions with `stream: true`, calling `onText` with each content delta as it arrives (server-sent
 * events: `data: {json}` blocks, ended by `data: [DONE]`). An error event mid-stream rejects with its message.
 */
export async function streamChat(
  key: string,
  model: string,
  content: string,
  onText: (delta: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await call(key, '/v1/chat/completions', {
    method: 'POST',
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
    signal,
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      if (data === '[DONE]') return;
      const event = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }>; error?: { message?: string } };
      if (event.error) throw new Error(event.error.message ?? 'The stream failed.');
      const delta = event.choices?.[0]?.delta?.content;
      if (delta) onText(delta);
    }
  }
}
