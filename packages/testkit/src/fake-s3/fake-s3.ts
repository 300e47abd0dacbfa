import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FakeS3Object {
  data: Buffer;
  lastModified: Date;
  contentType?: string;
}

export interface FakeS3Request {
  method: string;
  /** `/bucket/key`, decoded */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface FakeS3 {
  /** the endpoint an S3 client takes (path-style addressing) */
  readonly url: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** objects of the bucket by key */
  readonly objects: Map<string, FakeS3Object>;
  /** multipart uploads begun and neither completed nor aborted */
  readonly openUploads: number;
  readonly requests: FakeS3Request[];
  close(): Promise<void>;
}

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const etagOf = (data: Buffer) => `"${createHash('md5').update(data).digest('hex')}"`;

/**
 * The subset of the S3 protocol the AWS SDK's PutObject, GetObject (with Range), HeadObject, DeleteObject,
 * ListObjectsV2 and the multipart upload calls use, path-style, for one bucket on 127.0.0.1. Signatures are not
 * verified, but every request must carry a SigV4 Authorization header naming the fake's access key id.
 */
export async function startFakeS3(opts: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {}): Promise<FakeS3> {
  const bucket = opts.bucket ?? 'media';
  const accessKeyId = opts.accessKeyId ?? 'AKIAFAKES3EXAMPLE';
  const secretAccessKey = opts.secretAccessKey ?? `fake-secret-${randomBytes(8).toString('hex')}`;
  const objects = new Map<string, FakeS3Object>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer>; contentType?: string }>();
  const requests: FakeS3Request[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = decodeURIComponent(url.pathname);
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: req.method ?? 'GET', path, query, headers: req.headers });
    const xml = (status: number, doc: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/xml', ...headers });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${doc}`);
    };
    const fail = (status: number, code: string, message: string) =>
      req.method === 'HEAD'
        ? (res.writeHead(status), res.end())
        : xml(status, `<Error><Code>${code}</Code><Message>${esc(message)}</Message></Error>`);

    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('AWS4-HMAC-SHA256 ')) return fail(403, 'AccessDenied', 'Requests must be signed (Authorization header).');
    if (!auth.includes(`Credential=${accessKeyId}/`)) return fail(403, 'InvalidAccessKeyId', 'Unknown access key id.');

    const [, b, ...rest] = path.split('/');
    const key = rest.join('/');
    if (b !== bucket) return fail(404, 'NoSuchBucket', `No bucket ${b}.`);
    const method = req.method ?? 'GET';

    if (!key && method === 'GET' && query['list-type'] === '2') {
      const prefix = query.prefix ?? '';
      const max = Math.min(Number(query['max-keys'] ?? 1000), 1000);
      const after = query['continuation-token'] ?? query['start-after'] ?? '';
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = keys.slice(0, max);
      const truncated = keys.length > page.length;
      const contents = page
        .map((k) => {
          const o = objects.get(k)!;
          return `<Contents><Key>${esc(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${esc(etagOf(o.data))}</ETag><Size>${o.data.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
        })
        .join('');
      const next = truncated ? `<NextContinuationToken>${esc(page[page.length - 1]!)}</NextContinuationToken>` : '';
      return xml(
        200,
        `<ListBucketResult xmlns="${XMLNS}"><Name>${bucket}</Name><Prefix>${esc(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`,
      );
    }
    if (!key) return fail(400, 'InvalidRequest', 'This fake serves objects and ListObjectsV2 only.');

    if (method === 'POST' && 'uploads' in query) {
      const uploadId = randomBytes(12).toString('hex');
      uploads.set(uploadId, { key, parts: new Map(), contentType: req.headers['content-type'] });
      return xml(
        200,
        `<InitiateMultipartUploadResult xmlns="${XMLNS}"><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (query.uploadId) {
      const up = uploads.get(query.uploadId);
      if (!up || up.key !== key) return fail(404, 'NoSuchUpload', 'No such upload.');
      if (method === 'PUT') {
        up.parts.set(Number(query.partNumber), body);
        res.writeHead(200, { etag: etagOf(body) });
        return res.end();
      }
      if (method === 'DELETE') {
        uploads.delete(query.uploadId);
        res.writeHead(204);
        return res.end();
      }
      if (method === 'POST') {
        const listed = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        if (!listed.length || listed.some((n) => !up.parts.has(n))) return fail(400, 'InvalidPart', 'A listed part was not uploaded.');
        const data = Buffer.concat(listed.map((n) => up.parts.get(n)!));
        uploads.delete(query.uploadId);
        objects.set(key, { data, lastModified: new Date(), contentType: up.contentType });
        return xml(
          200,
          `<CompleteMultipartUploadResult xmlns="${XMLNS}"><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><ETag>${esc(etagOf(data))}</ETag></CompleteMultipartUploadResult>`,
        );
      }
    }
    if (method === 'PUT') {
      objects.set(key, { data: body, lastModified: new Date(), contentType: req.headers['content-type'] });
      res.writeHead(200, { etag: etagOf(body) });
      return res.end();
    }
    if (method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    if (method === 'GET' || method === 'HEAD') {
      const o = objects.get(key);
      if (!o) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
      const headers: Record<string, string> = {
        'last-modified': o.lastModified.toUTCString(),
        etag: etagOf(o.data),
        'accept-ranges': 'bytes',
        'content-type': o.contentType ?? 'application/octet-stream',
      };
      const range = method === 'GET' ? /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '') : null;
      if (range) {
        const size = o.data.length;
        let start = range[1] === '' ? size - Number(range[2]) : Number(range[1]);
        const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
        start = Math.max(0, start);
        if (start >= size || start > end) return fail(416, 'InvalidRange', 'The requested range is not satisfiable.');
        res.writeHead(206, { ...headers, 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${size}` });
        return res.end(o.data.subarray(start, end + 1));
      }
      res.writeHead(200, { ...headers, 'content-length': String(o.data.length) });
      return res.end(method === 'HEAD' ? undefined : o.data);
    }
    return fail(405, 'MethodNotAllowed', `${method} is not served by this fake.`);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    get openUploads() {
      return uploads.size;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
