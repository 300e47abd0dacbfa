/**
 * The yardstick of issue 28: the smallest node server that forwards a chat request to the mock upstream. node:http
 * server, node:http client with a keep-alive agent (undici is not a dependency here), no auth, no parsing: the body is
 * piped up, the answer (status, content type and length) piped back. What it costs is what node's http layer and the
 * loopback cost; whatever the gateway spends above it is ours. Run: tsx bench/bare-proxy.ts <port> <upstreamPort>
 */
import http from 'node:http';

const FORWARDED = ['content-type', 'content-length', 'cache-control'] as const;

export function startBareProxy(port: number, upstreamPort: number): Promise<http.Server> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const h of FORWARDED) if (req.headers[h]) headers[h] = req.headers[h];
    const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent }, (answer) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const h of FORWARDED) if (answer.headers[h]) out[h] = answer.headers[h];
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // a client that goes away mid-stream ends the upstream call too
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });
  server.keepAliveTimeout = 60000;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (require.main === module) {
  const [port, upstreamPort] = process.argv.slice(2).map(Number);
  void startBareProxy(port!, upstreamPort!).then(() => console.log(`bare proxy on 127.0.0.1:${port}`));
}
