export { klingProvider } from './kling-provider';
