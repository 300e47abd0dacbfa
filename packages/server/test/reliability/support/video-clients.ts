/** The three video formats as plain HTTP clients: create (with an Idempotency-Key), read, download. */
export type VideoFormat = 'gemini' | 'openai' | 'tasks';
export const VIDEO_FORMATS: VideoFormat[] = ['gemini', 'openai', 'tasks'];

export interface PlannedTask {
  format: VideoFormat;
  prompt: string;
  idempotencyKey: string;
  /** set once a creation answered 200 */
  id?: string;
}

/** 480p, 4 s: the quickest real render the simulator makes. */
function creation(format: VideoFormat, prompt: string): { path: string; body: unknown } {
  if (format === 'gemini')
    return {
      path: '/v1beta/models/sim-video-2.0:predictLongRunning',
      body: { instances: [{ prompt }], parameters: { durationSeconds: 4, resolution: '480p' } },
    };
  if (format === 'openai') return { path: '/v1/videos', body: { model: 'sim-video-2.0', prompt, seconds: '4', size: '1280x720' } };
  return {
    path: '/v1/contents/generations/tasks',
    body: { model: 'sim-video-2.0', content: [{ type: 'text', text: prompt }], duration: 4, resolution: '480p' },
  };
}

/** Creates the task unless it has an id; a retry with the same Idempotency-Key returns the original task. */
export async function createTask(baseUrl: string, key: string, t: PlannedTask): Promise<void> {
  if (t.id) return;
  const c = creation(t.format, t.prompt);
  const res = await fetch(baseUrl + c.path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': t.idempotencyKey },
    body: JSON.stringify(c.body),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { id?: string; name?: string };
  if (res.status === 200) t.id = body.id ?? String(body.name).split('/').at(-1);
}

export interface TaskState {
  status: string;
  error?: { code: string } | null;
}

export async function readTask(
  baseUrl: string,
  key: string,
  id: string,
  format: VideoFormat = 'tasks',
): Promise<TaskState & { http: number }> {
  const path =
    format === 'gemini'
      ? `/v1beta/models/sim-video-2.0/operations/${id}`
      : format === 'openai'
        ? `/v1/videos/${id}`
        : `/v1/contents/generations/tasks/${id}`;
  const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
  const b = (await res.json()) as Record<string, any>;
  const status = format === 'gemini' ? (!b.done ? 'pending' : b.error ? 'failed' : 'succeeded') : format === 'openai' ? b.status : b.status;
  return { http: res.status, status, error: b.error };
}

export const isTerminal = (s: string) => ['succeeded', 'failed', 'cancelled', 'expired', 'completed'].includes(s);

export async function download(
  baseUrl: string,
  key: string,
  id: string,
  format: VideoFormat = 'openai',
): Promise<{ status: number; bytes: Buffer; length: number }> {
  const path = format === 'gemini' ? `/v1beta/files/${id}:download?alt=media` : `/v1/videos/${id}/content`;
  const res = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes, length: Number(res.headers.get('content-length') ?? -1) };
}
