export { createKlingProvider, klingOptionsSchema, klingProvider, type KlingProvider, type KlingProviderConfig } from './kling-provider';
