import type { StoredFile } from '../files';

export interface FileListQuery {
  purpose?: string;
  /** ids after this one in the order asked (ids sort by creation) */
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
  /** files expired at this time are left out */
  now: Date;
}

/**
 * The metadata of uploaded and written files (the bytes are in the ContentStore). Every read and delete is by
 * account: another account's id is a missing file.
 */
export interface FileStore {
  insert(file: StoredFile): Promise<void>;
  /** null when missing or another account's; expired files are returned (the use case decides) */
  find(accountId: string, id: string): Promise<StoredFile | null>;
  list(accountId: string, query: FileListQuery): Promise<StoredFile[]>;
  /** false when there was nothing to delete */
  delete(accountId: string, id: string): Promise<boolean>;
  /** Files of any account expired at `now`, at most `limit`, oldest expiry first: the retention sweep's work. */
  expired(now: Date, limit: number): Promise<StoredFile[]>;
}
