/* global process, Buffer, console */
// A fake Ollama (POST /api/chat, JSON or NDJSON), with the conformance kit's control routes:
//   node fake-upstream.mjs --port <N> [--key <bearer key it accepts>]
//   POST /__fake/next {status, message, retryAfter, reply: {text, toolCalls, stop, usage}, malformed, hang}
//   GET  /__fake/log  {requests, closedEarly}     POST /__fake/reset
import { createServer } from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const KEY = arg('key', 'ollama-test-key');
let queue = [];
let log = { requests: [], closedEarly: 0 };

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

function chat(req, res, body) {
  const script = queue.shift() ?? {};
  res.on('close', () => {
    if (!res.writableEnded) log.closedEarly++;
  });
  if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { error: `unauthorized: ${req.headers.authorization}` });
  if (script.hang === 'before') return;
  if (script.status)
    return json(
      res,
      script.status,
      { error: script.message ?? `failure ${script.status}` },
      script.retryAfter ? { 'retry-after': String(script.retryAfter) } : {},
    );
  const r = script.reply ?? {};
  const users = body.messages.filter((m) => m.role === 'user');
  const text = r.toolCalls ? '' : (r.text ?? `fake-ollama says: ${users.at(-1)?.content ?? ''}`);
  const tool_calls = (r.toolCalls ?? []).map((t) => ({ function: { name: t.name, arguments: t.arguments } }));
  const final = {
    done: true,
    done_reason: r.stop === 'max_tokens' ? 'length' : 'stop',
    prompt_eval_count: r.usage?.input ?? 11,
    eval_count: r.usage?.output ?? 7,
  };
  const at = new Date().toISOString();
  if (body.stream === false) {
    if (script.malformed) return json(res, 200, { model: body.model, message: 42, done: true });
    return json(res, 200, {
      model: body.model,
      created_at: at,
      message: { role: 'assistant', content: text, ...(tool_calls.length ? { tool_calls } : {}) },
      ...final,
    });
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const send = (o) => res.write(`${JSON.stringify({ model: body.model, created_at: at, ...o })}\n`);
  const words = text ? text.split(/(?<= )/) : [];
  for (const [i, w] of words.entries()) {
    send({ message: { role: 'assistant', content: w }, done: false });
    if (i === 0 && script.hang === 'after-first') return;
  }
  if (script.malformed) return res.end('{"message": \n');
  if (tool_calls.length) send({ message: { role: 'assistant', content: '', tool_calls }, done: false });
  send({ message: { role: 'assistant', content: '' }, ...final });
  res.end();
}

const server = createServer(async (req, res) => {
  const text = await readBody(req);
  const body = text ? JSON.parse(text) : {};
  if (req.url === '/__fake/next') return (queue.push(body), json(res, 200, { queued: queue.length }));
  if (req.url === '/__fake/log') return json(res, 200, log);
  if (req.url === '/__fake/reset') return ((queue = []), (log = { requests: [], closedEarly: 0 }), json(res, 200, {}));
  log.requests.push({ path: req.url, body, authorization: req.headers.authorization });
  if (req.method === 'POST' && req.url === '/api/chat') return chat(req, res, body);
  json(res, 404, { error: 'not found' });
});
server.listen(Number(arg('port', '0')), '127.0.0.1', () => {
  console.log(`fake ollama listening on http://127.0.0.1:${server.address().port}`);
});
