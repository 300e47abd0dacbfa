export { FileContentStore } from './file-content-store';
export { ExpiringImageFiles } from './expiring-image-files';
export { S3ContentStore } from './s3-content-store';
export { ContentImageStore } from './content-image-store';
