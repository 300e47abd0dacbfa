export * from './file-content-store';
