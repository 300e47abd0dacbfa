export {
  createDashScopeProvider,
  dashscopeOptionsSchema,
  dashscopeProvider,
  type DashScopeProvider,
  type DashScopeProviderConfig,
} from './dashscope-provider';
