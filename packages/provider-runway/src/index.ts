export {
  createRunwayProvider,
  runwayOptionsSchema,
  runwayProvider,
  type RunwayProvider,
  type RunwayProviderConfig,
} from './runway-provider';
