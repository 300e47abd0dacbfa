import { FILE_LIMITS, invalid, type StoredFile } from '@gateway/core';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** OpenAI's file object, its deprecated `status` and `status_details` included (always processed: nothing is processed). */
export function encodeFile(f: StoredFile) {
  return {
    id: f.id,
    object: 'file',
    bytes: f.bytes,
    created_at: seconds(f.createdAt),
    expires_at: f.expiresAt ? seconds(f.expiresAt) : null,
    filename: f.filename,
    purpose: f.purpose,
    status: 'processed',
    status_details: null,
  };
}

export function encodeFileList(files: readonly StoredFile[], hasMore: boolean) {
  return {
    object: 'list',
    data: files.map(encodeFile),
    first_id: files[0]?.id ?? null,
    last_id: files.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}

/** The list query as declared (files.openapi.ts checks each parameter's form). */
export interface FileListQueryParams {
  purpose?: string;
  limit?: string;
  after?: string;
  order?: 'asc' | 'desc';
}

/** `?purpose=&limit=&after=&order=` → the use case's page request: up to 10,000 files, newest first by default. */
export function decodeFileListQuery(q: FileListQueryParams) {
  const limit = q.limit === undefined ? FILE_LIMITS.listLimit : Number(q.limit);
  if (limit < 1 || limit > FILE_LIMITS.listLimit)
    throw invalid('invalid_limit', `"limit" must be a whole number from 1 to ${FILE_LIMITS.listLimit}.`, 'limit');
  return { purpose: q.purpose || undefined, after: q.after || undefined, limit, order: q.order ?? 'desc' };
}

/** A name safe in a Content-Disposition header: printable ASCII without quotes or backslashes. */
export const attachmentName = (filename: string) => filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
