import type {
  ModelSpec,
  Principal,
  SpeechRequest,
  SpeechResult,
  SpeechStreamPart,
  TranscriptionRequest,
  TranscriptionResult,
  TranscriptionStreamPart,
} from '@gateway/core';

/** What the routes tell a call about the request it serves. */
export interface AudioCallMeta {
  format: string;
  requestId: string;
  signal: AbortSignal;
}

/** A routed call of one kind (core's MeteredCalls): the model resolved first, then answered or streamed. */
export interface MeteredService<Req, R, Part> {
  resolve(principal: Principal, modelId: unknown): ModelSpec;
  answer(principal: Principal, model: ModelSpec, request: Req, meta: AudioCallMeta): Promise<R>;
  stream(principal: Principal, model: ModelSpec, request: Req, meta: AudioCallMeta): AsyncIterable<Part>;
}

export interface AudioRouterDeps {
  speech: MeteredService<SpeechRequest, SpeechResult, SpeechStreamPart>;
  transcription: MeteredService<TranscriptionRequest, TranscriptionResult, TranscriptionStreamPart>;
}
