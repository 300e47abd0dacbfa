/** What the OpenAI fakes of one JSON route share: OpenAI's error body, and the server with its recorded bodies. */
import { readJson, startFakeHttp, type FakeHttpRequest, type FakeHttpServer } from '@gateway/testkit';
import type http from 'node:http';

/** OpenAI's error shape; a 401 carries `invalid_api_key`. */
export const openAiErrorBody = (status: number, message: string, param: string | null = null) => ({
  error: { message, type: 'invalid_request_error', param, code: status === 401 ? 'invalid_api_key' : null },
});

export interface FakeOpenAiJsonRoute {
  /** baseUrl as the openai SDK takes it: ends in /v1 */
  url: string;
  apiKey: string;
  api: FakeHttpServer;
  /** the JSON bodies received, in order */
  bodies(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** A fake answering `POST <pattern>` with `handle` (its own key check included), other paths in OpenAI's shape. */
export async function startFakeOpenAiJsonRoute(
  apiKey: string,
  pattern: RegExp,
  handle: (r: FakeHttpRequest, res: http.ServerResponse) => void | Promise<void>,
): Promise<FakeOpenAiJsonRoute> {
  const api = await startFakeHttp([{ kind: 'create', method: 'POST', pattern, handle }], openAiErrorBody);
  return {
    url: `${api.origin}/v1`,
    apiKey,
    api,
    bodies: () => api.requests.map((r) => readJson(r) ?? {}),
    close: () => api.close(),
  };
}
