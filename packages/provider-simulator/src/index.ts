export * from './simulator-provider';
export * from './simulator-text-model';
export * from './simulated-arguments';
export * from './simulator-image-model';
export * from './simulator-video-model';
export { probeMedia, type MediaInfo } from './ffmpeg';
