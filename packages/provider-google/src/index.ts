export {
  googleProvider,
  createGoogleProvider,
  googleOptionsSchema,
  type GoogleProvider,
  type GoogleProviderConfig,
} from './google-provider';
