import { newId } from './auth';
import { invalid } from './errors';

/** What a client may upload a file for; `batch_output` files are written by batches only. */
export const UPLOAD_PURPOSES = ['batch', 'user_data'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];
export type FilePurpose = UploadPurpose | 'batch_output';

const DAY_SECONDS = 86_400;

export const FILE_LIMITS = Object.freeze({
  /** 200 MiB: OpenAI's limit for a batch input file, applied to every upload */
  uploadBytes: 200 * 1024 * 1024,
  /** `expires_after[seconds]`: one hour to 30 days */
  minExpirySeconds: 3600,
  maxExpirySeconds: 30 * DAY_SECONDS,
  listLimit: 10_000,
});

/** Without `expires_after`: batch files (input and output) go after 30 days, user_data files are kept. */
const DEFAULT_EXPIRY_SECONDS: Readonly<Record<FilePurpose, number | null>> = Object.freeze({
  batch: 30 * DAY_SECONDS,
  batch_output: 30 * DAY_SECONDS,
  user_data: null,
});

/** A file's metadata; its bytes are the content store's object at `fileContentKey(id)`. */
export interface StoredFile {
  id: string;
  accountId: string;
  filename: string;
  purpose: FilePurpose;
  bytes: number;
  createdAt: Date;
  /** null: kept until deleted */
  expiresAt: Date | null;
}

/** Where file bytes live in the content store; the Files use case expires them, not the content store's safety net. */
export const FILE_CONTENT_PREFIX = 'files/';
export const fileContentKey = (id: string): string => `${FILE_CONTENT_PREFIX}${id}`;

/**
 * `file-` then the creation time in milliseconds (base 36, fixed width) and randomness: ids sort by creation, so a
 * list pages by id alone.
 */
export function newFileId(now: Date): string {
  return `file-${now.getTime().toString(36).padStart(9, '0')}${newId('', 12)}`;
}

export function isExpired(file: Pick<StoredFile, 'expiresAt'>, now: Date): boolean {
  return file.expiresAt !== null && file.expiresAt.getTime() <= now.getTime();
}

export function checkUploadPurpose(purpose: unknown): UploadPurpose {
  if (typeof purpose === 'string' && (UPLOAD_PURPOSES as readonly string[]).includes(purpose)) return purpose as UploadPurpose;
  throw invalid(
    'invalid_purpose',
    `"purpose" must be one of ${UPLOAD_PURPOSES.join(', ')}; got ${JSON.stringify(purpose ?? null)}.`,
    'purpose',
  );
}

/** `expires_after[seconds]` (anchored at `created_at`, the only anchor) within the limits, or undefined when not given. */
export function checkExpirySeconds(seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  const { minExpirySeconds: min, maxExpirySeconds: max } = FILE_LIMITS;
  if (!Number.isInteger(seconds) || seconds < min || seconds > max)
    throw invalid('invalid_expires_after', `"expires_after[seconds]" must be a whole number from ${min} to ${max}.`, 'expires_after');
  return seconds;
}

export function expiryOf(purpose: FilePurpose, createdAt: Date, expiresAfterSeconds?: number): Date | null {
  const seconds = expiresAfterSeconds ?? DEFAULT_EXPIRY_SECONDS[purpose];
  return seconds === null ? null : new Date(createdAt.getTime() + seconds * 1000);
}
