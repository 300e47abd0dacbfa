export { cohereProvider } from './cohere-provider';
