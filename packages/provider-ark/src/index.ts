export { arkProvider, createArkProvider, arkOptionsSchema, type ArkProvider, type ArkProviderConfig } from './ark-provider';
