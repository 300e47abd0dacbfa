export { FileContentStore } from './file-content-store';
export { ExpiringImageFiles, IMAGE_URL_TTL_MS } from './expiring-image-files';
export { DEFAULT_PART_SIZE, S3ContentStore, type S3ContentStoreOptions } from './s3-content-store';
export { ContentImageStore } from './content-image-store';
