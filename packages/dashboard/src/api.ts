import { csrfTokenOf } from './session';

/** Calls to this gateway's own HTTP APIs with a bearer key; an error answer becomes an ApiError with its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The message of an error answer in any of the gateway's formats (OpenAI, Anthropic, Gemini, code/message). */
function errorOf(status: number, body: unknown): ApiError {
  const b = body as { error?: { message?: string; code?: string | number; type?: string } | string; message?: string; code?: string };
  if (b && typeof b.error === 'object' && b.error)
    return new ApiError(status, b.error.message ?? `HTTP ${status}`, String(b.error.code ?? b.error.type ?? ''));
  if (b && typeof b.message === 'string') return new ApiError(status, b.message, b.code);
  return new ApiError(status, `HTTP ${status}`);
}

export async function call(key: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  // a single sign-on session: the cookie authenticates, the CSRF token goes along (session.ts)
  const csrf = csrfTokenOf(key);
  if (csrf === null) headers.set('Authorization', `Bearer ${key}`);
  else headers.set('X-CSRF-Token', csrf);
  if (init.body && typeof init.body === 'string') headers.set('Content-Type', 'application/json');
  const res = await fetch(path, { ...init, headers, cache: 'no-store', credentials: csrf === null ? 'omit' : 'same-origin' });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw errorOf(res.status, body);
  }
  return res;
}

export async function getJson<T>(key: string, path: string): Promise<T> {
  return (await call(key, path)).json() as Promise<T>;
}

export async function sendJson<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  return (await call(key, path, { method, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<T>;
}

export { query } from './query-string';

/** Saves a response body as a file: the export cannot be a plain link, which could not carry the key. */
export async function download(res: Response, filename: string): Promise<void> {
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
