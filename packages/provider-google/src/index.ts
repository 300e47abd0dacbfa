export { googleProvider } from './google-provider';
