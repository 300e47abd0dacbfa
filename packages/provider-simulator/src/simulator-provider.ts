import type { TextModelPort, VideoModelPort } from '@gateway/provider-kit';
import { type ProviderDescriptor } from '@gateway/provider-kit';
import { SimulatorEmbeddingModel } from './simulator-embedding-model';
import { SimulatorImageModel } from './simulator-image-model';
import { SimulatorModerationModel } from './simulator-moderation-model';
import { SimulatorRerankModel } from './simulator-rerank-model';
import { SimulatorSpeechModel } from './simulator-speech-model';
import { SimulatorTextModel } from './simulator-text-model';
import { SimulatorTranscriptionModel } from './simulator-transcription-model';
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
  image: SimulatorImageModel;
  video: VideoModelPort;
  embedding: SimulatorEmbeddingModel;
  speech: SimulatorSpeechModel;
  transcription: SimulatorTranscriptionModel;
  rerank: SimulatorRerankModel;
  moderation: SimulatorModerationModel;
}

/** `options` of a simulator provider entry (dataDir comes from the server, not the config). */
export const simulatorOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    queuedMs: { type: 'number', minimum: 0 },
    videoLatencyMs: { type: 'number', minimum: 0 },
    chunkDelayMs: { type: 'number', minimum: 0 },
  },
} as const;

export function createSimulatorProvider(options: SimulatorOptions = {}): SimulatorProvider {
  return {
    text: new SimulatorTextModel({ chunkDelayMs: options.chunkDelayMs }),
    image: new SimulatorImageModel(),
    video: new SimulatorVideoModel({ queuedMs: options.queuedMs, videoLatencyMs: options.videoLatencyMs, dataDir: options.dataDir }),
    embedding: new SimulatorEmbeddingModel(),
    speech: new SimulatorSpeechModel(),
    transcription: new SimulatorTranscriptionModel(),
    rerank: new SimulatorRerankModel(),
    moderation: new SimulatorModerationModel(),
  };
}

export const simulatorProvider: ProviderDescriptor<'simulator'> = {
  type: 'simulator',
  optionsSchema: simulatorOptionsSchema,
  // The simulator holds no sockets; its image threads end with it.
  create: (entry, env) => {
    const ports = createSimulatorProvider({ ...entry.options, dataDir: env.dataDir });
    return { ...ports, close: () => void ports.image.close(), drain: () => ports.image.drain() };
  },
};
