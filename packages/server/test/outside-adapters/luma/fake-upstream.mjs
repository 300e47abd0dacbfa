/* global process, Buffer, console */
// A fake of Luma's Dream Machine API, from its public reference, for tests and `npx gateway adapter:test`:
//   node fake-upstream.mjs --port <N> [--key <api key it accepts>]
//   POST   /dream-machine/v1/generations        201 a generation {id, generation_type, state: queued, assets: null, ...}
//   GET    /dream-machine/v1/generations/{id}   queued at the first poll, dreaming at the second, then completed
//                                              (assets.video: an absolute URL of the fake's CDN) or failed (failure_reason)
//   DELETE /dream-machine/v1/generations/{id}   204; the generation is gone (GET answers 404)
//   GET    /cdn/{id}.mp4                        the file, without a key (like Luma's CDN)
// Errors are {"detail": "..."}. It checks the body's types, not its values (the adapter's check() refuses those).
// Besides the API it answers the conformance kit's control routes (docs/providers/writing-an-adapter.md):
//   POST /__fake/next   the next submission: {status, message, retryAfter} fails it; {fail, hold, malformed, unstated} scripts it
//   GET  /__fake/log    {requests: [{method, path, body, authorization}], jobs: [...], cancelled: [ids], downloads: [{id, authorization}]}
//   POST /__fake/reset  forget the queue, the jobs and the log
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const KEY = arg('key', 'luma-test-key');
const API = '/dream-machine/v1/generations';
let queue = [];
let jobs = new Map();
let log = { requests: [], cancelled: [], downloads: [] };

// an MP4's first box (ftyp) and a payload naming the generation
const mp4 = (id) => {
  const ftyp = Buffer.alloc(20);
  ftyp.writeUInt32BE(20, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isom', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.from(`luma:${id}`)]);
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

function generation(job, origin) {
  const base = {
    id: job.id,
    generation_type: 'video',
    state: 'queued',
    failure_reason: null,
    created_at: job.createdAt,
    assets: null,
    model: job.body.model,
    request: { generation_type: 'video', ...job.body },
  };
  if (job.script.malformed) return { ...base, state: 'exploded' };
  const polls = job.polls++;
  if (job.script.hold || polls === 0) return base;
  if (polls === 1) return { ...base, state: 'dreaming' };
  if (job.script.fail) return { ...base, state: 'failed', failure_reason: 'Job failed' };
  return { ...base, state: 'completed', assets: { video: `${origin}/cdn/${job.id}.mp4`, image: `${origin}/cdn/${job.id}.jpg` } };
}

function bodyProblem(b) {
  if (typeof b.prompt !== 'string') return 'Prompt is required';
  for (const f of ['model', 'resolution', 'duration', 'aspect_ratio'])
    if (b[f] !== undefined && typeof b[f] !== 'string') return `${f} must be a string`;
  if (b.duration !== undefined && !/^\d+s$/.test(b.duration)) return 'duration must look like "5s"';
  if (b.aspect_ratio !== undefined && !/^\d+:\d+$/.test(b.aspect_ratio)) return 'aspect_ratio must look like "16:9"';
  if (b.loop !== undefined && typeof b.loop !== 'boolean') return 'loop must be a boolean';
  return undefined;
}

const server = createServer(async (req, res) => {
  const text = await readBody(req);
  let body = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    return json(res, 400, { detail: 'Invalid JSON' });
  }
  const path = req.url ?? '';
  const origin = `http://${req.headers.host}`;
  if (path === '/__fake/next') return (queue.push(body), json(res, 200, { queued: queue.length }));
  if (path === '/__fake/log') return json(res, 200, { ...log, jobs: [...jobs.values()] });
  if (path === '/__fake/reset')
    return ((queue = []), (jobs = new Map()), (log = { requests: [], cancelled: [], downloads: [] }), json(res, 200, {}));

  let m = /^\/cdn\/([^/]+)\.mp4$/.exec(path);
  if (req.method === 'GET' && m) {
    log.downloads.push({ id: m[1], authorization: req.headers.authorization ?? null });
    if (!jobs.has(m[1])) return json(res, 404, { detail: 'Not found' });
    res.writeHead(200, { 'content-type': 'video/mp4' });
    return res.end(mp4(m[1]));
  }

  log.requests.push({ method: req.method, path, body, authorization: req.headers.authorization ?? null });
  if (req.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { detail: 'Invalid API key provided' });
  if (req.method === 'POST' && path === API) {
    const script = queue.shift() ?? {};
    if (script.status)
      return json(
        res,
        script.status,
        { detail: script.message ?? `failure ${script.status}` },
        script.retryAfter ? { 'retry-after': String(script.retryAfter) } : {},
      );
    const problem = bodyProblem(body);
    if (problem) return json(res, 400, { detail: problem });
    const job = { id: randomUUID(), body, script, polls: 0, createdAt: new Date().toISOString() };
    jobs.set(job.id, job);
    const created = generation({ ...job, polls: 0, script: {} }, origin);
    return json(res, 201, created);
  }
  m = new RegExp(`^${API}/([^/]+)$`).exec(path);
  if (m && req.method === 'GET') {
    const job = jobs.get(decodeURIComponent(m[1]));
    return job ? json(res, 200, generation(job, origin)) : json(res, 404, { detail: 'Generation not found' });
  }
  if (m && req.method === 'DELETE') {
    const id = decodeURIComponent(m[1]);
    if (!jobs.has(id)) return json(res, 404, { detail: 'Generation not found' });
    jobs.delete(id);
    log.cancelled.push(id);
    res.writeHead(204);
    return res.end();
  }
  json(res, 404, { detail: 'Not found' });
});
server.listen(Number(arg('port', '0')), '127.0.0.1', () => {
  console.log(`fake Luma listening on http://127.0.0.1:${server.address().port}`);
});
