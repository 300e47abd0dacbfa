export * from './ark-api';
export * from './ark-error';
export * from './ark-provider';
export * from './ark-video-model';
export * from './batched-task-reads';
export * from './convert-to-ark-task';
export * from './map-ark-task';
