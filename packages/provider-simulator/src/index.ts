export {
  simulatorProvider,
  createSimulatorProvider,
  simulatorOptionsSchema,
  type SimulatorOptions,
  type SimulatorProvider,
} from './simulator-provider';
// the video engine's tests read back what the simulator rendered
export { probeMedia, type MediaInfo } from './ffmpeg';
