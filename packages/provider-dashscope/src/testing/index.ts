/** For tests only (`@gateway/provider-dashscope/testing`): a fake DashScope (Wan) upstream speaking its wire format on 127.0.0.1. */
export { type FakeDashScope, startFakeDashScope } from './fake-dashscope-upstream';
