import path from 'node:path';
import type { ContentStore } from '@gateway/core';
import { FileContentStore, S3ContentStore } from '@gateway/store-files';
import { StartupError } from './startup-checks';
import type { S3Env } from './gateway-env';

/** CONTENT_STORE, read: where videos and thumbnails live (docs/configuration.md). */
export type ContentStoreChoice =
  | { kind: 'file' }
  | { kind: 'postgres' }
  | {
      kind: 's3';
      bucket: string;
      prefix: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses CONTENT_STORE and, for S3, its companions; a wrong value stops start-up naming the variable, never a secret. */
export function parseContentStore(value: string | undefined, s3: S3Env = {}): ContentStoreChoice {
  const v = (value ?? '').trim();
  if (v === '' || v === 'file') return { kind: 'file' };
  if (v === 'postgres') return { kind: 'postgres' };
  if (v.startsWith('s3://')) {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw invalid('it is not a URL of the form s3://bucket/prefix');
    }
    if (url.username || url.password) throw invalid('credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL');
    if (!BUCKET.test(url.hostname)) throw invalid('the bucket name is not a valid S3 bucket name');
    const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
    const endpoint = s3.endpoint;
    if (endpoint && !/^https?:\/\/[^/@\s]+(\/.*)?$/.test(endpoint))
      throw new StartupError('S3_ENDPOINT must be an http(s) URL without credentials, such as http://minio:9000.', 'content_store_invalid');
    const id = s3.accessKeyId;
    const secret = s3.secretAccessKey;
    if (Boolean(id) !== Boolean(secret))
      throw new StartupError(
        'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or neither, for the SDK default chain).',
        'content_store_invalid',
      );
    const pathStyle = s3.forcePathStyle;
    if (pathStyle !== undefined && pathStyle !== '' && pathStyle !== 'true' && pathStyle !== 'false')
      throw new StartupError(`S3_FORCE_PATH_STYLE must be true or false (got ${JSON.stringify(pathStyle)}).`, 'content_store_invalid');
    return {
      kind: 's3',
      bucket: url.hostname,
      prefix,
      endpoint,
      region: s3.region ?? 'us-east-1',
      // S3-compatible servers (MinIO, Ceph) usually want path-style; AWS itself takes either
      forcePathStyle: pathStyle ? pathStyle === 'true' : Boolean(endpoint),
      credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret } : undefined,
    };
  }
  throw invalid('expected file, postgres or s3://bucket/prefix');
}

function invalid(why: string): StartupError {
  // the value itself is not echoed: it may hold what someone meant as credentials
  return new StartupError(`CONTENT_STORE is not valid: ${why}.`, 'content_store_invalid');
}

export interface OpenedContentStore {
  store: ContentStore;
  /** what logs and other instances are told: where the bytes are, without credentials */
  location: string;
  close(): void;
}

/** `inDatabase`: the store in the gateway's own database (repositories.ts builds it: the one file naming the store's classes) */
export function openContentStore(
  choice: ContentStoreChoice,
  deps: { inDatabase: () => ContentStore; dataDir: string },
): OpenedContentStore {
  switch (choice.kind) {
    case 'file': {
      const root = path.resolve(deps.dataDir, 'content');
      return { store: new FileContentStore(root), location: `file:${root}`, close: () => undefined };
    }
    case 'postgres':
      return { store: deps.inDatabase(), location: 'postgres', close: () => undefined };
    case 's3': {
      const { bucket, prefix, endpoint, region, forcePathStyle, credentials } = choice;
      const store = new S3ContentStore({ bucket, prefix, client: { endpoint, region, forcePathStyle, credentials } });
      const where = endpoint ? ` at ${new URL(endpoint).host}` : '';
      return { store, location: `s3://${bucket}/${prefix}${where}`, close: () => store.close() };
    }
  }
}
