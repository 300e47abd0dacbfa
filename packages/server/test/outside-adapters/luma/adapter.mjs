/* global fetch */
// A hand-written outside video adapter for Luma's Dream Machine API, from its public API reference: create a
// generation (POST /dream-machine/v1/generations), poll it (GET .../generations/{id}: queued → dreaming →
// completed | failed, the file at `assets.video`), delete it (DELETE .../generations/{id}, Luma's only way to stop
// one). A vendor none of the built-ins speaks. Adapter contract 1.x; it imports only Node's own modules.
import { Readable } from 'node:stream';

const DURATIONS = [5, 9];
const RESOLUTIONS = ['540p', '720p', '1080p', '4k'];
const UP = "this model's upstream (Luma Dream Machine)";

export default {
  contractVersion: '1.0.0',
  name: 'luma',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      // the API's host; the adapter adds /dream-machine/v1
      baseUrl: { type: 'string', pattern: '^https?://', default: 'https://api.lumalabs.ai' },
      loop: { type: 'boolean' },
    },
  },

  create(entry, env) {
    const { kit } = env;
    const options = entry.options ?? {};
    const baseUrl = (options.baseUrl ?? 'https://api.lumalabs.ai').replace(/\/$/, '');
    const api = `${baseUrl}/dream-machine/v1/generations`;
    // the entry's apiKey: sealed in the store, never shown by the admin API, redacted from every answer; it goes to
    // the API only, never to the CDN that serves the finished file
    const auth = entry.apiKey ? { authorization: `Bearer ${entry.apiKey}` } : {};
    const invalid = (code, message) => kit.error('invalid_request', message, { code });

    async function call(method, url, { body, signal } = {}) {
      let res;
      try {
        res = await fetch(url, {
          method,
          headers: { ...auth, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal,
          redirect: 'manual',
        });
      } catch (e) {
        if (signal?.aborted) throw e;
        throw kit.error('upstream_unavailable', 'The upstream provider could not be reached.');
      }
      if (!res.ok) {
        // Luma's errors are {"detail": "..."}
        const err = await res.json().catch(() => ({}));
        const detail = typeof err?.detail === 'string' ? err.detail : undefined;
        throw kit.statusError(res.status, detail, { retryAfter: res.headers.get('retry-after') });
      }
      if (res.status === 204) return undefined;
      return res.json().catch(() => {
        throw kit.malformed('an answer that is not JSON');
      });
    }

    const video = {
      // Luma takes no idempotency key and a generation does not carry the gateway's task: a start whose answer was
      // lost is never repeated (the worker fails that task with submission_unknown), so one task is one generation
      idempotentStart: false,

      // what Luma cannot render is refused before the task is stored, so nothing reaches the upstream
      check(req) {
        if (!DURATIONS.includes(req.durationSeconds))
          throw invalid('duration_not_supported', `A duration of ${req.durationSeconds} s is not available from ${UP}; allowed: 5, 9 s.`);
        if (!RESOLUTIONS.includes(req.resolution))
          throw invalid(
            'resolution_not_supported',
            `Resolution ${req.resolution} is not available from ${UP}; allowed: ${RESOLUTIONS.join(', ')}.`,
          );
        if (req.firstFrame || req.lastFrame || req.referenceImages?.length)
          throw invalid('images_not_supported', `${UP} takes keyframes as public URLs only; this adapter sends text prompts.`);
        if (!req.prompt || req.prompt.length < 3 || req.prompt.length > 5000)
          throw invalid('prompt_length', `${UP} takes a prompt of 3 to 5000 characters.`);
      },

      async start(req, ctx) {
        const g = await call('POST', api, {
          signal: ctx.signal,
          body: {
            prompt: req.prompt,
            model: req.upstreamModel,
            resolution: req.resolution,
            duration: `${req.durationSeconds}s`,
            // "adaptive" leaves the ratio to Luma
            ...(req.aspectRatio === 'adaptive' ? {} : { aspect_ratio: req.aspectRatio }),
            ...(options.loop === undefined ? {} : { loop: options.loop }),
          },
        });
        if (typeof g?.id !== 'string' || !g.id) throw kit.malformed('a generation without an id');
        return g.id;
      },

      async status(ref, ctx) {
        let g;
        try {
          g = await call('GET', `${api}/${encodeURIComponent(ref)}`, { signal: ctx.signal });
        } catch (e) {
          // a generation Luma no longer knows was deleted (our cancel) or expired: it will never finish
          if (e?.upstreamStatus === 404)
            return { state: 'failed', code: 'generation_not_found', message: 'The upstream no longer has this generation.' };
          throw e;
        }
        switch (g?.state) {
          case 'queued':
            return { state: 'pending', running: false };
          case 'dreaming':
            return { state: 'pending', running: true };
          case 'failed':
            return { state: 'failed', code: 'generation_failed', message: String(g.failure_reason || 'The upstream failed the video.') };
          case 'completed': {
            const url = g.assets?.video;
            if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw kit.malformed('a completed generation without a video url');
            // Luma's answer states no width, height or duration: the gateway measures the file
            return {
              state: 'succeeded',
              artifact: {
                async open() {
                  let res;
                  try {
                    // a public CDN address: no key
                    res = await fetch(url, { redirect: 'follow' });
                  } catch {
                    throw kit.error('upstream_unavailable', 'The video file could not be downloaded.');
                  }
                  if (!res.ok || !res.body) throw kit.statusError(res.status || 502);
                  return Readable.fromWeb(res.body);
                },
              },
            };
          }
          default:
            throw kit.malformed('a generation of an unknown state');
        }
      },

      async cancel(ref) {
        await call('DELETE', `${api}/${encodeURIComponent(ref)}`);
      },
    };

    // fetch keeps no sockets of ours to close
    return { video, close() {}, drain() {} };
  },
};
