/**
 * A deliberately cheap OpenAI-compatible upstream for benchmarks: canned bodies, no JSON parsing beyond a
 * substring check, optional latency (mean ± jitter) and N-chunk streams. Run: tsx bench/mock-upstream.ts <port> <latencyMs> <jitterMs>
 */
import http from 'node:http';

export interface MockOptions {
  port: number;
  latencyMs: number;
  jitterMs: number;
  /** pause between streamed chunks (memory scenario keeps streams open) */
  chunkIntervalMs?: number;
}

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-mock',
  object: 'chat.completion',
  created: 1700000000,
  model: 'mock',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the mock upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
});
/** One 1,536-dimension vector per request (the bench sends one input), as OpenAI spells it in each encoding. */
const VECTOR = Array.from({ length: 1536 }, (_, i) => +(Math.sin(i) / 39.2).toFixed(9));
const embeddingsBody = (embedding: number[] | string) =>
  JSON.stringify({
    object: 'list',
    data: [{ object: 'embedding', index: 0, embedding }],
    model: 'mock-embed',
    usage: { prompt_tokens: 3, total_tokens: 3 },
  });
const EMBEDDINGS_FLOAT = embeddingsBody(VECTOR);
const EMBEDDINGS_BASE64 = embeddingsBody(Buffer.from(Float32Array.from(VECTOR).buffer).toString('base64'));
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model: 'mock', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const FIRST = `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model: 'mock', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`;
const CHUNK = chunk('tok ');
const LAST = `data: ${JSON.stringify({ id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1700000000, model: 'mock', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 200, total_tokens: 205 } })}\n\ndata: [DONE]\n\n`;

export function startMockUpstream(opts: MockOptions): Promise<http.Server> {
  const delay = () => (opts.latencyMs ? opts.latencyMs + (Math.random() * 2 - 1) * opts.jitterMs : 0);
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const respond = () => {
        if (req.url?.endsWith('/embeddings')) {
          const answer = body.includes('"encoding_format":"base64"') ? EMBEDDINGS_BASE64 : EMBEDDINGS_FLOAT;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
          res.end(answer);
          return;
        }
        if (!body.includes('"stream":true')) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(COMPLETION) });
          res.end(COMPLETION);
          return;
        }
        const m = /chunks=(\d+)/.exec(req.url ?? '') ?? /"mock_chunks":(\d+)/.exec(body);
        const n = m ? Number(m[1]) : 200;
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        if (!opts.chunkIntervalMs) {
          res.end(FIRST + CHUNK.repeat(n) + LAST);
          return;
        }
        res.write(FIRST);
        let sent = 0;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          res.write(CHUNK);
          if (++sent >= n) {
            clearInterval(timer);
            res.end(LAST);
          }
        }, opts.chunkIntervalMs);
      };
      const d = delay();
      if (d > 0) setTimeout(respond, d);
      else respond();
    });
  });
  server.keepAliveTimeout = 60000;
  return new Promise((resolve) => server.listen(opts.port, '127.0.0.1', () => resolve(server)));
}

if (require.main === module) {
  const [port, latency, jitter, interval] = process.argv.slice(2).map(Number);
  void startMockUpstream({ port: port!, latencyMs: latency || 0, jitterMs: jitter || 0, chunkIntervalMs: interval || 0 }).then(() =>
    console.log(`mock upstream on 127.0.0.1:${port}`),
  );
}
