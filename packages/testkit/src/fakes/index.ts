export * from './in-memory-task-repository';
export * from './in-memory-content-store';
export * from './fake-video-model';
export * from './memory-usage-log';
export * from './manual-clock';
export * from './fake-video-engine';
