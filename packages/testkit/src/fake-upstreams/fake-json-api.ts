import { readJson, startFakeHttp, type FakeHttpServer, type FakeVideoRoute } from './fake-video-tasks';

/** A fake upstream of JSON routes (embeddings, rerank, moderation), and what it was sent. */
export interface FakeJsonApi {
  /** the base URL its clients take: the origin, then `base` */
  url: string;
  apiKey: string;
  api: FakeHttpServer;
  /** the JSON bodies received, in order; with `path`, those sent to it */
  bodies(path?: string): Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startFakeJsonApi(
  apiKey: string,
  routes: FakeVideoRoute[],
  errorBody: (status: number, message: string) => unknown,
  base = '',
): Promise<FakeJsonApi> {
  const api = await startFakeHttp(routes, errorBody);
  return {
    url: `${api.origin}${base}`,
    apiKey,
    api,
    bodies: (path) => api.requests.filter((r) => path === undefined || r.path === path).map((r) => readJson(r) ?? {}),
    close: () => api.close(),
  };
}
