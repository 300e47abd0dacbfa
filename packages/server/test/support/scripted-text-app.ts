import express, { type Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError, ImageGeneration, ModelCatalogue, TextGeneration, type TextModelPort, type TextStreamPart } from '@gateway/core';
import { formatRouter, openAiErrorShape, requestId, type WireFormat } from '@gateway/http-kit';

/**
 * A text upstream that streams the given parts and then either fails or hangs until the caller goes away:
 * what the simulator cannot do, for mid-stream errors and client disconnects.
 */
export function scriptedTextPort(parts: TextStreamPart[], then: 'fail' | 'hang') {
  const seen = { aborted: false, finished: false };
  const port: TextModelPort = {
    async generate() {
      throw new Error('scripted port streams only');
    },
    async *stream(_req, ctx) {
      try {
        for (const p of parts) yield p;
        if (then === 'fail')
          throw new GatewayError('upstream_unavailable', 'The upstream dropped the stream.', { code: 'upstream_dropped' });
        await new Promise<void>((resolve) => {
          if (ctx.signal.aborted) resolve();
          ctx.signal.addEventListener('abort', () => resolve());
        });
        seen.aborted = ctx.signal.aborted;
      } finally {
        seen.finished = true;
      }
    },
  };
  return { port, seen };
}

export interface ScriptedDeps {
  text: TextGeneration;
  catalogue: ModelCatalogue;
  images: ImageGeneration;
}

/**
 * An app with one wire format's routes over the scripted port; every key is accepted and the model is `scripted`.
 * `more` adds the services a format needs beyond the text ones.
 */
export function scriptedTextApp<D>(format: WireFormat<D>, port: TextModelPort, more: (deps: ScriptedDeps) => D = (d) => d as D): Express {
  const catalogue = new ModelCatalogue(
    [{ id: 'scripted', kind: 'text', deployments: [{ provider: 'scripted', upstreamModel: 'scripted', priority: 0, weight: 1 }] }],
    [{ name: 'all', models: ['*'] }],
  );
  const text = new TextGeneration({ catalogue, providers: { text: () => port }, usage: { record() {}, flush: async () => {} } });
  const app = express();
  app.use(requestId);
  const images = new ImageGeneration({ catalogue, providers: { image: () => undefined }, usage: { record() {}, flush: async () => {} } });
  // a route shared with OpenAI's (Gemini's batch read at /v1/batches/{name}) documents OpenAI's shape too
  const shapes = format.errorShapes.includes(openAiErrorShape) ? format.errorShapes : [...format.errorShapes, openAiErrorShape];
  const single = { ...format, errorShapes: shapes };
  app.use(formatRouter(single, more({ text, catalogue, images }), async () => ({ accountId: 'a', keyId: 'k', group: 'all' })));
  return app;
}

/** Starts a streaming request on a real socket, reads the first chunk, then drops the connection. */
export async function streamThenDisconnect(app: Express, path: string, headers: Record<string, string>, body: object): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          path,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
        },
        (res) =>
          res.once('data', (chunk) => {
            resolve(String(chunk));
            req.destroy();
          }),
      );
      req.on('error', (e) => reject(e));
      req.end(JSON.stringify(body));
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
