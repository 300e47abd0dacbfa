/* global fetch, URL */
// An outside video adapter for the gateway (adapter contract 1.x, docs/providers/writing-an-adapter.md).
// It speaks the example "acme video" API of fake-upstream.mjs (submit a job, poll it, download the file, cancel):
// replace the request and answer mapping with your upstream's. It imports only Node's own modules: the gateway
// hands it `env.kit` (errors from the closed table).
import { Readable } from 'node:stream';

export default {
  contractVersion: '1.0.0',
  name: 'acme-video',
  optionsSchema: {
    type: 'object',
    required: ['baseUrl'],
    additionalProperties: false,
    properties: {
      baseUrl: { type: 'string', pattern: '^https?://' },
    },
  },

  create(entry, env) {
    const { kit } = env;
    const baseUrl = entry.options.baseUrl.replace(/\/$/, '');
    // the entry's apiKey: sealed in the store, never shown by the admin API, redacted from every answer
    const apiKey = entry.apiKey;
    const auth = apiKey ? { authorization: `Bearer ${apiKey}` } : {};

    async function call(method, path, { body, signal, headers = {} } = {}) {
      let res;
      try {
        res = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { ...auth, ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal,
          redirect: 'manual',
        });
      } catch {
        throw kit.error('upstream_unavailable', 'The upstream provider could not be reached.');
      }
      if (!res.ok) {
        const err = await res.json().catch(() => ({}));
        throw kit.statusError(res.status, err?.error?.message, { retryAfter: res.headers.get('retry-after') });
      }
      return res.json().catch(() => {
        throw kit.malformed('an answer that is not JSON');
      });
    }

    const video = {
      // the upstream deduplicates by the idempotency key: resubmitting a task whose answer was lost is safe
      idempotentStart: true,
      async start(req, ctx) {
        const job = await call('POST', '/v1/videos', {
          signal: ctx.signal,
          headers: { 'idempotency-key': ctx.taskId },
          body: {
            model: req.upstreamModel,
            prompt: req.prompt,
            duration: req.durationSeconds,
            resolution: req.resolution,
            aspect_ratio: req.aspectRatio,
          },
        });
        if (typeof job?.id !== 'string' || !job.id) throw kit.malformed('a job without an id');
        return job.id;
      },
      async status(ref, ctx) {
        const job = await call('GET', `/v1/videos/${encodeURIComponent(ref)}`, { signal: ctx.signal });
        switch (job?.status) {
          case 'queued':
            return { state: 'pending', running: false };
          case 'running':
            return { state: 'pending', running: true, ...(typeof job.progress === 'number' ? { progress: job.progress } : {}) };
          case 'failed':
          case 'cancelled':
            return {
              state: 'failed',
              code: String(job.error?.code ?? job.status),
              message: String(job.error?.message ?? 'The upstream failed the video.'),
            };
          case 'succeeded': {
            const v = job.video;
            if (typeof v?.url !== 'string') throw kit.malformed('a finished job without a video url');
            return {
              state: 'succeeded',
              artifact: {
                async open() {
                  const res = await fetch(new URL(v.url, baseUrl), { headers: auth });
                  if (!res.ok || !res.body) throw kit.statusError(res.status);
                  return Readable.fromWeb(res.body);
                },
                // only what the answer states: the gateway measures the file for the rest
                ...(Number.isInteger(v.width) ? { width: v.width } : {}),
                ...(Number.isInteger(v.height) ? { height: v.height } : {}),
                ...(typeof v.duration === 'number' ? { durationSeconds: v.duration } : {}),
              },
            };
          }
          default:
            throw kit.malformed('a job of an unknown status');
        }
      },
      async cancel(ref) {
        await call('POST', `/v1/videos/${encodeURIComponent(ref)}/cancel`);
      },
    };

    // fetch keeps no sockets of ours to close
    return { video, close() {}, drain() {} };
  },
};
