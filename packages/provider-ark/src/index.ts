export { arkProvider } from './ark-provider';
