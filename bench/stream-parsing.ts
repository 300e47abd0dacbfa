/**
 * `node --import tsx bench/stream-parsing.ts [checkout]` (issue 40, levers 16 and 19), two JSON lines:
 * - what the chat stream forwarder costs per event on OpenAI's own chunks (`service_tier` before the choices,
 *   `obfuscation` padding last), read in 600-byte upstream reads, and how many events it hands over one by one as
 *   native events (CPU per 203-event stream and per event);
 * - what the SSE splitter costs per event on 200 Gemini-shaped events with CRLF line ends, in 600-byte reads.
 * The checkout defaults to this one; give another (a `git archive` of packages/core and packages/provider-kit with
 * node_modules linked) to compare.
 */
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ChatStreamForwarder } = require(`${root}/packages/provider-kit/src/chat-dialect/chat-stream-forwarder`);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ChatStreamMapper } = require(`${root}/packages/provider-kit/src/chat-dialect/map-chat-stream`);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SseSplitter } = require(`${root}/packages/provider-kit/src/sse-parser`);

const HEAD =
  '{"id":"chatcmpl-D0q8","object":"chat.completion.chunk","created":1769092764,"model":"gpt-4o-mini-2024-07-18",' +
  '"service_tier":"default","system_fingerprint":"fp_29330a9688",';
const FIELDS = { id: 'chatcmpl-gw', object: 'chat.completion.chunk', created: 5, model: 'client-model', system_fingerprint: 'fp_gw' };
const event = (choices: string, tail: string) => `data: ${HEAD}${choices}${tail}}\n\n`;
const choice = (delta: object, finish: string | null = null) =>
  `"choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]`;
const EVENTS = 203;

let stream = event(choice({ role: 'assistant', content: '' }), ',"obfuscation":"ab"');
for (let i = 0; i < EVENTS - 3; i++) stream += event(choice({ content: 'tok ' }), ',"obfuscation":"Zk3"');
stream += event(choice({}, 'stop'), ',"obfuscation":"x"');
stream += event('"choices":[]', ',"usage":{"prompt_tokens":9,"completion_tokens":200,"total_tokens":209},"obfuscation":"q"');
stream += 'data: [DONE]\n\n';
const inReads = (text: string) => Array.from({ length: Math.ceil(text.length / 600) }, (_, i) => text.slice(i * 600, i * 600 + 600));
const reads = inReads(stream);

function oneStream(): number {
  const f = new ChatStreamForwarder({ dialect: 'openai-chat', fields: FIELDS }, false, new ChatStreamMapper({ warnings: [] }));
  let natives = 0;
  for (const r of reads) for (const p of f.push(r) as { type: string }[]) if (p.type === 'native-event') natives++;
  f.end();
  return natives;
}

for (let i = 0; i < 200; i++) oneStream();
const runs = Number(process.env.BENCH_STREAMS ?? 2000);
const start = process.cpuUsage();
let natives = 0;
for (let i = 0; i < runs; i++) natives = oneStream();
const used = process.cpuUsage(start);
const us = (used.user + used.system) / runs;
console.log(JSON.stringify({ cpuPerStreamUs: Math.round(us), cpuPerEventUs: +(us / EVENTS).toFixed(2), nativeEventsPerStream: natives }));

const GEMINI_EVENT =
  'data: {"candidates": [{"content": {"parts": [{"text": "tok "}],"role": "model"},"index": 0}],"usageMetadata": ' +
  '{"promptTokenCount": 5,"candidatesTokenCount": 9,"totalTokenCount": 14},"modelVersion": "gemini-2.5-flash","responseId": "abc123"}\r\n\r\n';
const crlfReads = inReads(GEMINI_EVENT.repeat(200));
const split = () => {
  const splitter = new SseSplitter();
  for (const r of crlfReads) splitter.push(r);
};
for (let i = 0; i < 200; i++) split();
const splitStart = process.cpuUsage();
for (let i = 0; i < runs; i++) split();
const splitUsed = process.cpuUsage(splitStart);
console.log(JSON.stringify({ crlfSplitCpuPerEventUs: +((splitUsed.user + splitUsed.system) / runs / 200).toFixed(2) }));
