import type { Principal } from '../auth';
import { GatewayError, invalid } from '../errors';
import {
  checkExpirySeconds,
  checkUploadPurpose,
  expiryOf,
  FILE_LIMITS,
  fileContentKey,
  isExpired,
  newFileId,
  type FilePurpose,
  type StoredFile,
} from '../files';
import type { ContentStore } from '../ports/content-store.port';
import type { FileStore } from '../ports/file-store.port';

type Source = NodeJS.ReadableStream | Uint8Array;
/** Whose file: a caller's principal, or the account a batch runs for. */
type Owner = Pick<Principal, 'accountId'>;

/** The form fields of an upload besides the file, unchecked. */
export interface UploadFields {
  purpose: unknown;
  expiresAfterSeconds?: number;
}

export interface FileUpload {
  filename: string;
  source: Source;
  /** a promise when the form sends its fields after the file: the bytes are stored meanwhile */
  fields: UploadFields | Promise<UploadFields>;
}

/** A file a gateway component writes (a batch's output), not a client. */
export interface FileWrite {
  filename: string;
  purpose: FilePurpose;
  source: Source;
  expiresAfterSeconds?: number;
}

export interface FileListRequest {
  purpose?: string;
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export interface FileContent {
  file: StoredFile;
  mediaType: string;
  size: number;
  open(range?: { start: number; end: number }): NodeJS.ReadableStream;
}

export interface FilesDeps {
  files: FileStore;
  content: ContentStore;
  now?: () => Date;
  /** the upload limit (FILE_LIMITS.uploadBytes unless a test injects a smaller one) */
  uploadBytes?: number;
}

/** The refusal of an upload past the limit, whoever notices first (the form parser while it streams, or the store). */
export function fileTooLarge(limit: number): GatewayError {
  return invalid('file_too_large', `A file may be at most ${limit} bytes (${limit / 1024 / 1024} MiB).`, 'file');
}

const notFound = (id: string) => new GatewayError('not_found', `No such File object: ${id}`, { code: 'file_not_found', param: 'id' });

function checkFilename(filename: string): string {
  if (!filename || filename.length > 512 || /[\u0000-\u001f\u007f]/.test(filename))
    throw invalid('invalid_filename', 'The file needs a name of 1 to 512 characters without control characters.', 'file');
  return filename;
}

const checkFields = (f: UploadFields) => ({
  purpose: checkUploadPurpose(f.purpose),
  expiresAfterSeconds: checkExpirySeconds(f.expiresAfterSeconds),
});

/** Rows the retention sweep handles per round. */
const SWEEP_BATCH = 500;

/**
 * Files of an account: uploads (POST /v1/files) and what batches write, metadata in the FileStore and bytes in the
 * ContentStore under `files/<id>`. Another account's file and an expired one are missing files alike. A failed
 * upload leaves neither a row nor bytes behind.
 */
export class Files {
  readonly uploadBytes: number;
  private readonly now: () => Date;

  constructor(private readonly deps: FilesDeps) {
    this.uploadBytes = deps.uploadBytes ?? FILE_LIMITS.uploadBytes;
    this.now = deps.now ?? (() => new Date());
  }

  /** A client's upload: the bytes stream to the store while the form's other fields arrive; then both are checked. */
  async upload(owner: Owner, upload: FileUpload): Promise<StoredFile> {
    const filename = checkFilename(upload.filename);
    // fields already in hand are checked before a byte is stored
    const fields = upload.fields instanceof Promise ? upload.fields.then(checkFields) : Promise.resolve(checkFields(upload.fields));
    const createdAt = this.now();
    const id = newFileId(createdAt);
    const [checked, written] = await Promise.allSettled([fields, this.deps.content.put(fileContentKey(id), upload.source)]);
    if (checked.status === 'fulfilled' && written.status === 'fulfilled' && written.value.size <= this.uploadBytes) {
      const { purpose, expiresAfterSeconds } = checked.value;
      const file = { id, accountId: owner.accountId, filename, purpose, bytes: written.value.size, createdAt };
      return this.record({ ...file, expiresAt: expiryOf(purpose, createdAt, expiresAfterSeconds) });
    }
    await this.deps.content.delete(fileContentKey(id));
    throw written.status === 'rejected' ? written.reason : checked.status === 'rejected' ? checked.reason : fileTooLarge(this.uploadBytes);
  }

  /** A file written by the gateway itself (a batch's output or error file); no upload limit applies. */
  async write(owner: Owner, input: FileWrite): Promise<StoredFile> {
    const filename = checkFilename(input.filename);
    const expiresAfterSeconds = checkExpirySeconds(input.expiresAfterSeconds);
    const createdAt = this.now();
    const id = newFileId(createdAt);
    const { size } = await this.deps.content.put(fileContentKey(id), input.source);
    const expiresAt = expiryOf(input.purpose, createdAt, expiresAfterSeconds);
    return this.record({ id, accountId: owner.accountId, filename, purpose: input.purpose, bytes: size, createdAt, expiresAt });
  }

  async get(owner: Owner, id: string): Promise<StoredFile> {
    const file = await this.deps.files.find(owner.accountId, id);
    if (!file || isExpired(file, this.now())) throw notFound(id);
    return file;
  }

  /** One page, newest first unless `order: 'asc'`; `hasMore` when another page follows. */
  async list(owner: Owner, request: FileListRequest): Promise<{ files: StoredFile[]; hasMore: boolean }> {
    const limit = Math.min(Math.max(1, request.limit), FILE_LIMITS.listLimit);
    const rows = await this.deps.files.list(owner.accountId, {
      purpose: request.purpose,
      after: request.after,
      order: request.order,
      limit: limit + 1,
      now: this.now(),
    });
    return { files: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  async content(owner: Owner, id: string): Promise<FileContent> {
    const file = await this.get(owner, id);
    const key = fileContentKey(id);
    return { file, mediaType: 'application/octet-stream', size: file.bytes, open: (range) => this.deps.content.open(key, range) };
  }

  /** The bytes go first: a row left by a failure after them is retried by deleting again, never an orphan object. */
  async delete(owner: Owner, id: string): Promise<StoredFile> {
    const file = await this.get(owner, id);
    await this.deps.content.delete(fileContentKey(id));
    if (!(await this.deps.files.delete(owner.accountId, id))) throw notFound(id);
    return file;
  }

  /** Deletes expired files, bytes first; returns how many. Idempotent: every instance may run it. */
  async sweepExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.deps.files.expired(this.now(), SWEEP_BATCH);
      for (const f of expired) {
        await this.deps.content.delete(fileContentKey(f.id));
        await this.deps.files.delete(f.accountId, f.id);
      }
      total += expired.length;
      if (expired.length < SWEEP_BATCH) return total;
    }
  }

  private async record(file: StoredFile): Promise<StoredFile> {
    try {
      await this.deps.files.insert(file);
      return file;
    } catch (e) {
      await this.deps.content.delete(fileContentKey(file.id));
      throw e;
    }
  }
}
