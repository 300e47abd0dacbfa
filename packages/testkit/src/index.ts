export * from './key-repository.conformance';
export * from './task-repository.conformance';
export * from './fakes';
export * from './fake-upstreams';
export * from './fixtures';
