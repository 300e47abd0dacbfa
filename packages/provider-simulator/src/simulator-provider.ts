import type { ImageModelPort, TextModelPort, VideoModelPort } from '@gateway/core';
import { SimulatorImageModel } from './simulator-image-model';
import { SimulatorTextModel } from './simulator-text-model';
import { SimulatorVideoModel } from './simulator-video-model';

export interface SimulatorOptions {
  /** how long a video task stays queued in the simulator */
  queuedMs?: number;
  /** how long it then runs */
  videoLatencyMs?: number;
  /** pause between streamed text chunks */
  chunkDelayMs?: number;
  /** where rendered media is written */
  dataDir?: string;
}

export interface SimulatorProvider {
  text: TextModelPort;
  image: ImageModelPort;
  video: VideoModelPort;
}

export function createSimulatorProvider(options: SimulatorOptions = {}): SimulatorProvider {
  return {
    text: new SimulatorTextModel({ chunkDelayMs: options.chunkDelayMs }),
    image: new SimulatorImageModel(),
    video: new SimulatorVideoModel({ queuedMs: options.queuedMs, videoLatencyMs: options.videoLatencyMs, dataDir: options.dataDir }),
  };
}
