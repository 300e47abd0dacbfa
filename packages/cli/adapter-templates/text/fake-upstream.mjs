/* global process, Buffer, console */
// A fake of the upstream this adapter speaks, for tests and `npx gateway adapter:test`:
//   node fake-upstream.mjs --port <N> [--key <api key it accepts>]
// Besides the upstream's API it answers the conformance kit's control routes (docs/providers/writing-an-adapter.md):
//   POST /__fake/next   the next answer: {status, message, retryAfter, reply: {text, toolCalls, stop, usage}, malformed, hang}
//   GET  /__fake/log    {requests: [{path, body, authorization}], closedEarly}
//   POST /__fake/reset  forget the queue and the log
import { createServer } from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const KEY = arg('key', 'acme-test-key');
let queue = [];
let log = { requests: [], closedEarly: 0 };

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_fake_${log.requests.length}`, ...headers });
  res.end(JSON.stringify(body));
};

function lastUserText(body) {
  const users = (body.messages ?? []).filter((m) => m.role === 'user');
  return users.length ? users[users.length - 1].content : '';
}

async function generate(req, res, body) {
  const script = queue.shift() ?? {};
  res.on('close', () => {
    if (!res.writableEnded) log.closedEarly++;
  });
  if (req.headers.authorization !== `Bearer ${KEY}`)
    return json(res, 401, { error: { message: `invalid api key ${String(req.headers.authorization).replace('Bearer ', '')}` } });
  if (script.hang === 'before') return; // never answers: the gateway's timeout must end the call
  if (script.status) {
    return json(
      res,
      script.status,
      { error: { message: script.message ?? `failure ${script.status}` } },
      script.retryAfter ? { 'retry-after': String(script.retryAfter) } : {},
    );
  }
  const r = script.reply ?? {};
  const text = r.text ?? `fake-acme says: ${lastUserText(body)}`;
  const toolCalls = r.toolCalls ?? [];
  const usage = { input_tokens: r.usage?.input ?? 11, output_tokens: r.usage?.output ?? 7 };
  const stop = r.stop ?? (toolCalls.length ? 'tool_use' : 'end');
  if (!body.stream) {
    if (script.malformed) return json(res, 200, { output: 'not-a-list', usage: 'none' });
    const output = [...(toolCalls.length ? [] : [{ type: 'text', text }]), ...toolCalls.map((t) => ({ type: 'tool_call', ...t }))];
    return json(res, 200, { id: `acme_${log.requests.length}`, model: body.model, output, stop, usage });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req_fake_${log.requests.length}` });
  const send = (data) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const words = toolCalls.length ? [] : text.split(/(?<= )/);
  for (const [i, w] of words.entries()) {
    send({ type: 'delta', text: w });
    if (i === 0 && script.hang === 'after-first') return; // keeps the stream open: abort and idle timeouts must end it
  }
  if (script.malformed) return res.end('data: {not json\n\n');
  for (const t of toolCalls) send({ type: 'tool_call', ...t });
  send({ type: 'done', stop, usage });
  res.end();
}

const server = createServer(async (req, res) => {
  const text = await readBody(req);
  const body = text ? JSON.parse(text) : {};
  if (req.url === '/__fake/next') return (queue.push(body), json(res, 200, { queued: queue.length }));
  if (req.url === '/__fake/log') return json(res, 200, log);
  if (req.url === '/__fake/reset') return ((queue = []), (log = { requests: [], closedEarly: 0 }), json(res, 200, {}));
  log.requests.push({ path: req.url, body, authorization: req.headers.authorization });
  if (req.method === 'POST' && req.url === '/v1/generate') return generate(req, res, body);
  json(res, 404, { error: { message: 'no such route' } });
});
server.listen(Number(arg('port', '0')), '127.0.0.1', () => {
  console.log(`fake upstream listening on http://127.0.0.1:${server.address().port}`);
});
