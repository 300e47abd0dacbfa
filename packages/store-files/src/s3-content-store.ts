import { PassThrough, type Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { checkContentKey, contentPieces, mediaTypeOfKey, type ContentStore } from '@gateway/core';

/** 8 MiB parts: above S3's 5 MiB minimum; an upload holds one part in memory at a time. */
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export interface S3ContentStoreOptions {
  bucket: string;
  /** key prefix inside the bucket, without leading or trailing slashes ('' for the bucket root) */
  prefix: string;
  /** the client's settings: endpoint, region, forcePathStyle, credentials (absent: the SDK's default chain) */
  client: S3ClientConfig;
  /** bytes per multipart part; an object smaller than one part is a single PutObject of known length */
  partSize?: number;
}

/** The SDK (about 20 MB resident) is loaded by the first S3 store, not by every gateway that imports this package. */
let sdkModule: typeof S3 | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy: see above
const sdk = (): typeof S3 => (sdkModule ??= require('@aws-sdk/client-s3') as typeof S3);

const statusOf = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * Media bytes in an S3-compatible bucket (CONTENT_STORE=s3://bucket/prefix). Objects appear whole: a PutObject, or a
 * multipart upload that S3 assembles only on completion (an abandoned one is aborted). Range reads are GetObject
 * with a Range header. The client is built here and never logged, so its credentials stay inside the SDK.
 */
export class S3ContentStore implements ContentStore {
  private readonly s3: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;

  constructor(opts: S3ContentStoreOptions) {
    // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's newer default trailers.
    this.s3 = new (sdk().S3Client)({
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...opts.client,
    });
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ? `${opts.prefix}/` : '';
    this.partSize = opts.partSize ?? DEFAULT_PART_SIZE;
  }

  private objectKey(key: string): string {
    return this.prefix + checkContentKey(key);
  }

  async put(key: string, source: NodeJS.ReadableStream | Uint8Array): Promise<{ size: number }> {
    const Key = this.objectKey(key);
    const ContentType = mediaTypeOfKey(key);
    const pieces = contentPieces(source);
    const nextPart = partReader(pieces, this.partSize);
    let uploadId: string | undefined;
    try {
      let part = await nextPart();
      if (part.last) {
        await this.s3.send(
          new (sdk().PutObjectCommand)({ Bucket: this.bucket, Key, Body: part.data, ContentLength: part.data.length, ContentType }),
        );
        return { size: part.data.length };
      }
      uploadId = (await this.s3.send(new (sdk().CreateMultipartUploadCommand)({ Bucket: this.bucket, Key, ContentType }))).UploadId!;
      const parts: Array<{ PartNumber: number; ETag?: string }> = [];
      let size = 0;
      for (;;) {
        if (part.data.length > 0) {
          const PartNumber = parts.length + 1;
          const upload = { Bucket: this.bucket, Key, UploadId: uploadId, PartNumber, Body: part.data, ContentLength: part.data.length };
          parts.push({ PartNumber, ETag: (await this.s3.send(new (sdk().UploadPartCommand)(upload))).ETag });
          size += part.data.length;
        }
        if (part.last) break;
        part = await nextPart();
      }
      await this.s3.send(
        new (sdk().CompleteMultipartUploadCommand)({ Bucket: this.bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
      return { size };
    } catch (e) {
      await pieces.return?.();
      // ignored: the write's own error is rethrown below; an upload left open never becomes an object under Key
      if (uploadId)
        await this.s3
          .send(new (sdk().AbortMultipartUploadCommand)({ Bucket: this.bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      throw e;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.s3.send(new (sdk().HeadObjectCommand)({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw e;
    }
  }

  open(key: string, range?: { start: number; end: number }): NodeJS.ReadableStream {
    const out = new PassThrough();
    const Key = this.objectKey(key);
    this.s3
      .send(new (sdk().GetObjectCommand)({ Bucket: this.bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
      .then(
        (r) => {
          const body = r.Body as Readable;
          body.on('error', (e) => out.destroy(e));
          out.on('close', () => body.destroy());
          body.pipe(out);
        },
        // a range starting at or past the end holds no bytes (the port's callers answer 416 before asking)
        (e: unknown) => (statusOf(e) === 416 ? out.end() : out.destroy(e instanceof Error ? e : new Error(String(e)))),
      );
    return out;
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new (sdk().DeleteObjectCommand)({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** Lists the prefix and deletes what was last modified before `cutoff` (a bucket lifecycle rule can do the same). */
  async deleteOlderThan(cutoff: Date, except: readonly string[] = []): Promise<number> {
    let removed = 0;
    let ContinuationToken: string | undefined;
    do {
      const page = await this.s3.send(new (sdk().ListObjectsV2Command)({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) {
        const spared = except.some((x) => o.Key?.startsWith(this.prefix + x));
        if (o.Key && o.LastModified && o.LastModified < cutoff && !spared) {
          await this.s3.send(new (sdk().DeleteObjectCommand)({ Bucket: this.bucket, Key: o.Key }));
          removed++;
        }
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return removed;
  }

  close(): void {
    this.s3.destroy();
  }
}

/** Cuts a source into parts of `size` bytes (the last one shorter); `last` once the source is exhausted. */
function partReader(pieces: AsyncIterator<Buffer>, size: number): () => Promise<{ data: Buffer; last: boolean }> {
  let carry: Buffer = Buffer.alloc(0);
  let done = false;
  return async () => {
    const held: Buffer[] = [carry];
    let n = carry.length;
    while (n < size && !done) {
      const r = await pieces.next();
      if (r.done) done = true;
      else {
        held.push(r.value);
        n += r.value.length;
      }
    }
    const all = Buffer.concat(held);
    carry = all.subarray(size);
    return { data: all.subarray(0, size), last: done && carry.length === 0 };
  };
}
