import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createTimedServer } from './timed-server';

/** GETs `/x?y=1` once from a server made by createTimedServer, noting each request's prototype before the app runs. */
async function served(app: http.RequestListener) {
  const server = createTimedServer(app);
  const prototypes: unknown[] = [];
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
    prototypes.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?y=1`);
    return { status: res.status, body: await res.text(), prototypes };
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

it("gives an express app's requests and responses the app's own prototypes from the start", async () => {
  const app = express();
  app.get('/x', (req, res) => res.status(201).json({ query: req.query, ip: typeof req.ip }));
  const got = await served(app);
  expect(got).toEqual({ status: 201, body: '{"query":{"y":"1"},"ip":"string"}', prototypes: [[app.request, app.response]] });
});

it("gives any other listener node's own request and response", async () => {
  const got = await served((_req, res) => res.end('plain'));
  expect(got).toEqual({
    status: 200,
    body: 'plain',
    prototypes: [[http.IncomingMessage.prototype, http.ServerResponse.prototype]],
  });
});
