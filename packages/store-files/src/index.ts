export { FileContentStore } from './file-content-store';
