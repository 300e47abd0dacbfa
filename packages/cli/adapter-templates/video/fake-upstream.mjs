/* global process, Buffer, console */
// A fake of the upstream this adapter speaks, for tests and `npx gateway adapter:test`:
//   node fake-upstream.mjs --port <N> [--key <api key it accepts>]
// A job is queued at its first poll, running at the second and done at the third (no clock to wait on).
// Besides the upstream's API it answers the conformance kit's control routes (docs/providers/writing-an-adapter.md):
//   POST /__fake/next   the next submission: {status, message, retryAfter} fails it; {fail, hold, malformed, unstated} scripts its job
//   GET  /__fake/log    {requests: [{method, path, body, authorization}], jobs: [...], cancelled: [ids]}
//   POST /__fake/reset  forget the queue, the jobs and the log
import { createServer } from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const KEY = arg('key', 'acme-test-key');
let queue = [];
let jobs = new Map();
let log = { requests: [], cancelled: [] };
let seq = 0;

// an MP4's first box (ftyp) and a payload naming the job
const mp4 = (id) => {
  const ftyp = Buffer.alloc(20);
  ftyp.writeUInt32BE(20, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isom', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.from(`acme-video:${id}`)]);
};

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

function view(job) {
  if (job.cancelled) return { id: job.id, status: 'cancelled' };
  if (job.script.malformed) return { id: job.id, status: 'exploded' };
  const polls = ++job.polls;
  if (job.script.hold || polls === 1) return { id: job.id, status: 'queued' };
  if (polls === 2) return { id: job.id, status: 'running', progress: 50 };
  if (job.script.fail) return { id: job.id, status: 'failed', error: { code: 'render_failed', message: 'the renderer gave up' } };
  const shape = job.script.unstated ? {} : { width: 1280, height: 720, duration: job.body.duration ?? 4 };
  return { id: job.id, status: 'succeeded', video: { url: `/files/${job.id}.mp4`, ...shape } };
}

const server = createServer(async (req, res) => {
  const text = await readBody(req);
  const body = text ? JSON.parse(text) : {};
  const path = req.url ?? '';
  if (path === '/__fake/next') return (queue.push(body), json(res, 200, { queued: queue.length }));
  if (path === '/__fake/log') return json(res, 200, { ...log, jobs: [...jobs.values()] });
  if (path === '/__fake/reset') return ((queue = []), (jobs = new Map()), (log = { requests: [], cancelled: [] }), json(res, 200, {}));
  log.requests.push({ method: req.method, path, body, authorization: req.headers.authorization });
  if (req.headers.authorization !== `Bearer ${KEY}`)
    return json(res, 401, { error: { message: `invalid api key ${String(req.headers.authorization).replace('Bearer ', '')}` } });
  if (req.method === 'POST' && path === '/v1/videos') {
    const key = req.headers['idempotency-key'];
    const same = key && [...jobs.values()].find((j) => j.key === key);
    if (same) return json(res, 200, { id: same.id, status: 'queued' });
    const script = queue.shift() ?? {};
    if (script.status)
      return json(
        res,
        script.status,
        { error: { message: script.message ?? `failure ${script.status}` } },
        script.retryAfter ? { 'retry-after': String(script.retryAfter) } : {},
      );
    const job = { id: `job_${++seq}`, key, body, script, polls: 0, cancelled: false };
    jobs.set(job.id, job);
    return json(res, 200, { id: job.id, status: 'queued' });
  }
  let m = /^\/v1\/videos\/([^/]+)$/.exec(path);
  if (req.method === 'GET' && m) {
    const job = jobs.get(decodeURIComponent(m[1]));
    return job ? json(res, 200, view(job)) : json(res, 404, { error: { message: 'no such job' } });
  }
  m = /^\/v1\/videos\/([^/]+)\/cancel$/.exec(path);
  if (req.method === 'POST' && m) {
    const job = jobs.get(decodeURIComponent(m[1]));
    if (!job) return json(res, 404, { error: { message: 'no such job' } });
    job.cancelled = true;
    log.cancelled.push(job.id);
    return json(res, 200, { id: job.id, status: 'cancelled' });
  }
  m = /^\/files\/([^/]+)\.mp4$/.exec(path);
  if (req.method === 'GET' && m && jobs.has(m[1])) {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    return res.end(mp4(m[1]));
  }
  json(res, 404, { error: { message: 'no such route' } });
});
server.listen(Number(arg('port', '0')), '127.0.0.1', () => {
  console.log(`fake upstream listening on http://127.0.0.1:${server.address().port}`);
});
