/**
 * The adapter contract as executable cases (`@gateway/provider-kit/testing`): what `npx gateway adapter:test` runs
 * against an outside package, and what jest runs against each built-in adapter through testkit's fakes.
 */
export {
  check,
  type ConformanceCase,
  describeConformanceCases,
  expectReason,
  failure,
  type FakeControl,
  runConformanceCases,
} from './conformance-case';
export { startFakeProcess, type FakeProcess } from './fake-process';
export { runAdapterKit } from './run-kit';
export { TEXT_CASES, type TextKitTarget } from './text-cases';
export { VIDEO_CASES, type VideoKitTarget } from './video-cases';
