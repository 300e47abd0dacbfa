import type {
  ModelSpec,
  Principal,
  SpeechCommand,
  SpeechResult,
  SpeechStreamPart,
  TranscriptionCommand,
  TranscriptionResult,
  TranscriptionStreamPart,
} from '@gateway/core';

/** What the routes tell a call about the request it serves. */
export interface AudioCallMeta {
  format: string;
  requestId: string;
  signal: AbortSignal;
}

export type { SpeechCommand, TranscriptionCommand };

/** A routed call of one kind (core's Speech, Transcription): the model resolved first, then answered or streamed. */
export interface MeteredService<Cmd, R, Part> {
  resolve(principal: Principal, modelId: unknown): ModelSpec;
  answer(principal: Principal, model: ModelSpec, command: Cmd, meta: AudioCallMeta): Promise<R>;
  stream(principal: Principal, model: ModelSpec, command: Cmd, meta: AudioCallMeta): AsyncIterable<Part>;
}

export interface AudioRouterDeps {
  speech: MeteredService<SpeechCommand, SpeechResult, SpeechStreamPart>;
  transcription: MeteredService<TranscriptionCommand, TranscriptionResult, TranscriptionStreamPart>;
}
