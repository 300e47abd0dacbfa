export { voyageProvider } from './voyage-provider';
