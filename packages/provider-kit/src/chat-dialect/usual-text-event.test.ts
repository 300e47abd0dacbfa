import type { TextStreamPart } from '@gateway/core';
import { parseSse } from '../sse-parser';
import type { ChatChunk } from './chat-api';
import { readChatStream } from './chat-completions-model';
import { ChatStreamMapper } from './map-chat-stream';
import { usualTextEvent } from './usual-text-event';

const HEAD = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1769092764,"model":"gpt-4o-mini"';
const text = (content: string, extra = '') =>
  `${HEAD},${extra}"choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":null}]`;

/** Events of the usual shape, as OpenAI and compatible servers write them. */
const USUAL = [
  `${text('Hello')}}`,
  `${text('caf\u00e9 "quoted" \\ back\nline')}}`,
  `${text('\u00e9', '"service_tier":"default","system_fingerprint":"fp_1",')},"obfuscation":"Zk3"}`,
  `${text('tok', '"system_fingerprint":null,')},"usage":null}`,
  `${text('tok', '"service_tier":"flex",')},"usage":null,"obfuscation":"a1"}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":"short form"},"finish_reason":null}]}`,
];

/** Events that must be read whole: each carries something beside one piece of text. */
const OTHERS = [
  `${HEAD},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":"stop"}]}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":null,"tool_calls":[]},"logprobs":null,"finish_reason":null}]}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":1}}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":null}],"moderation":{"flagged":true}}`,
  `${text('x', '"service_tier":"unknown-tier",')}}`,
  `${text('x', '"extra":"field",')}}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":["x"]},"logprobs":null,"finish_reason":null}]}`,
  `${HEAD},"choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":null}]},"obfuscation":"a"b"}`,
];

async function partsOf(datas: string[], finish = true): Promise<TextStreamPart[]> {
  const last = `${HEAD},"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}`;
  const sse = [...datas, ...(finish ? [last] : [])].map((d) => `data: ${d}\n\n`).join('') + 'data: [DONE]\n\n';
  async function* body() {
    yield Buffer.from(sse);
  }
  const out: TextStreamPart[] = [];
  for await (const p of readChatStream(parseSse(body()), new ChatStreamMapper({ warnings: [] }))) out.push(p);
  return out;
}

describe('the usual chat stream event', () => {
  it.each(USUAL)('is read without parsing it whole, with the text the full read gives: %s', (data) => {
    const usual = usualTextEvent(data);
    const whole = JSON.parse(data) as ChatChunk;
    expect(usual?.text).toBe(whole.choices![0]!.delta!.content);
    expect(new ChatStreamMapper({ warnings: [] }).text(usual!.text)).toEqual(new ChatStreamMapper({ warnings: [] }).push(whole));
  });

  it.each(OTHERS)('anything else is left to the whole read: %s', (data) => {
    expect(usualTextEvent(data)).toBeUndefined();
  });

  it('a stream of usual events gives the parts the full read gives, and the finish after them', async () => {
    const parts = await partsOf(USUAL);
    const texts = parts.filter((p) => p.type === 'text-delta').map((p) => (p as { delta: string }).delta);
    expect(texts).toEqual(USUAL.map((d) => (JSON.parse(d) as ChatChunk).choices![0]!.delta!.content));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('text after [DONE] is ignored and a stream without a finish reason is still cut short', async () => {
    const mapper = new ChatStreamMapper({ warnings: [] });
    mapper.markDone();
    expect(mapper.text('late')).toEqual([]);
    await expect(partsOf([USUAL[0]!], false)).rejects.toMatchObject({ code: expect.any(String) });
  });
});
