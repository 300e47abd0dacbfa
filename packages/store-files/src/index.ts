export { FileContentStore } from './file-content-store';
export { ExpiringImageFiles, IMAGE_URL_TTL_MS } from './expiring-image-files';
