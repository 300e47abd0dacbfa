/**
 * Gateways whose video models are served by the fake Veo, Sora and Ark upstreams (testkit), and a
 * driver for each of the three inbound video formats, as a client of that format would use it.
 */
import type { GatewayConfigFile } from '../../src/config';
import { eventually } from '@gateway/testkit';
import type { FakeArk } from '@gateway/provider-ark/testing';
import type { FakeVeo } from '@gateway/provider-google/testing';
import type { FakeSora } from '@gateway/provider-openai/testing';

// The test gateway's keys (test-gateway.ts), repeated here so a spawned-process test need not load the app in jest.
const ALPHA_KEY = 'sk-alpha-test-key-0001';
export const BETA_KEY = 'sk-beta-test-key-0002';

export const UPSTREAM_MODELS = { veo: 'veo-video', sora: 'sora-video', ark: 'ark-video' } as const;
export type UpstreamName = keyof typeof UPSTREAM_MODELS;

/** A standard 2.0 video model served by `provider` as `upstreamModel`. */
export const videoModel = (id: string, provider: string, upstreamModel: string) => ({
  id,
  kind: 'video' as const,
  family: '2.0' as const,
  tier: 'standard' as const,
  provider,
  upstreamModel,
});

/** Providers veo/sora/ark (types google/openai/ark) on the fakes; one video model each, visible to both keys. */
export function upstreamVideoConfig(f: { veo: FakeVeo; sora: FakeSora; ark: FakeArk }, maxActive = 1000): GatewayConfigFile {
  return {
    providers: [
      { id: 'veo', type: 'google', baseUrl: f.veo.url, apiKey: f.veo.apiKey },
      { id: 'sora', type: 'openai', baseUrl: f.sora.url, apiKey: f.sora.apiKey },
      { id: 'ark', type: 'ark', baseUrl: f.ark.url, apiKey: f.ark.apiKey },
    ],
    models: [
      videoModel(UPSTREAM_MODELS.veo, 'veo', 'veo-3.0-generate-001'),
      videoModel(UPSTREAM_MODELS.sora, 'sora', 'sora-2'),
      videoModel(UPSTREAM_MODELS.ark, 'ark', 'seedance-1-0-pro'),
    ],
    groups: [
      { name: 'default', models: ['*'] },
      { name: 'vip', models: ['*'] },
    ],
    keys: [
      { key: ALPHA_KEY, account: 'alpha', group: 'default' },
      { key: BETA_KEY, account: 'beta', group: 'vip' },
    ],
    limits: { maxActiveTasksPerAccount: maxActive },
  };
}

export type InboundFormat = 'gemini' | 'openai' | 'tasks';
export const INBOUND_FORMATS: InboundFormat[] = ['gemini', 'openai', 'tasks'];

export interface TaskView {
  status: string;
  error?: { code: string; message: string } | null;
}

/** Creates, reads and downloads through one inbound format over HTTP (fetch against a listening gateway). */
export function inbound(format: InboundFormat, baseUrl: string, key = BETA_KEY) {
  const auth: Record<string, string> = format === 'gemini' ? { 'x-goog-api-key': key } : { authorization: `Bearer ${key}` };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      status: res.status,
      headers: res.headers,
      body: res.headers.get('content-type')?.includes('json')
        ? ((await res.json()) as Record<string, any>)
        : Buffer.from(await res.arrayBuffer()),
    };
  };
  return {
    /** 720p, 16:9, 4 s: something all three upstreams render */
    async create(model: string, prompt: string, extra: Record<string, unknown> = {}) {
      if (format === 'gemini') {
        const r = await call('POST', `/v1beta/models/${model}:predictLongRunning`, {
          instances: [{ prompt }],
          parameters: { durationSeconds: 4, aspectRatio: '16:9', resolution: '720p', ...extra },
        });
        return {
          status: r.status,
          body: r.body as Record<string, any>,
          id:
            String((r.body as Record<string, any>).name ?? '')
              .split('/')
              .at(-1) ?? '',
        };
      }
      if (format === 'openai') {
        const r = await call('POST', '/v1/videos', { model, prompt, seconds: '4', size: '1280x720', ...extra });
        return { status: r.status, body: r.body as Record<string, any>, id: String((r.body as Record<string, any>).id ?? '') };
      }
      const r = await call('POST', '/v1/contents/generations/tasks', {
        model,
        content: [{ type: 'text', text: prompt }],
        ratio: '16:9',
        resolution: '720p',
        duration: 4,
        ...extra,
      });
      return { status: r.status, body: r.body as Record<string, any>, id: String((r.body as Record<string, any>).id ?? '') };
    },
    /** The task as this format shows it, reduced to the task-read words. */
    async read(id: string): Promise<TaskView> {
      if (format === 'gemini') {
        const b = (await call('GET', `/v1beta/models/any/operations/${id}`)).body as Record<string, any>;
        return { status: !b.done ? 'pending' : b.error ? 'failed' : 'succeeded', error: b.error ?? null };
      }
      if (format === 'openai') {
        const b = (await call('GET', `/v1/videos/${id}`)).body as Record<string, any>;
        return { status: b.status, error: b.error };
      }
      const b = (await call('GET', `/v1/contents/generations/tasks/${id}`)).body as Record<string, any>;
      return { status: b.status, error: b.error };
    },
    async content(id: string): Promise<{ status: number; bytes: Buffer }> {
      const r =
        format === 'gemini' ? await call('GET', `/v1beta/files/${id}:download?alt=media`) : await call('GET', `/v1/videos/${id}/content`);
      return { status: r.status, bytes: Buffer.isBuffer(r.body) ? r.body : Buffer.from(JSON.stringify(r.body)) };
    },
    cancel: (id: string) => call('DELETE', format === 'openai' ? `/v1/videos/${id}` : `/v1/contents/generations/tasks/${id}`),
  };
}

/** Waits on the format-neutral task route until the task is terminal; returns its status and error. */
export async function settle(baseUrl: string, id: string, timeoutMs = 15_000, key = BETA_KEY): Promise<TaskView> {
  let task!: TaskView;
  await eventually(
    async () => {
      task = await inbound('tasks', baseUrl, key).read(id);
      if (['queued', 'running'].includes(task.status)) throw new Error(`task ${id} still ${task.status}`);
    },
    timeoutMs,
    50,
  );
  return task;
}
