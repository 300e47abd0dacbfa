import type { VideoImage, VideoRequestDraft } from '@gateway/core';
import { jsonRequestBody, withoutAbsentMembers } from '@gateway/http-kit';
import { decodeInlineImage } from './inline-image.codec';
import { predictRefusal } from './predict.refusals';
import { predictRequestSchema, type PredictRequestBody } from './predict.request.schema';

/** Wire names handed to the core's limits table, so its messages name what the caller sent. */
export const PREDICT_FIELD_NAMES: NonNullable<VideoRequestDraft['fieldNames']> = {
  prompt: 'instances[0].prompt',
  firstFrame: 'instances[0].image',
  lastFrame: 'instances[0].lastFrame',
  referenceImages: 'instances[0].referenceImages',
  durationSeconds: 'parameters.durationSeconds',
  aspectRatio: 'parameters.aspectRatio',
  resolution: 'parameters.resolution',
};

/** A predictLongRunning body; nulls count as absent. */
export const predictBody = jsonRequestBody<PredictRequestBody>(predictRequestSchema, {
  code: 'invalid_request',
  refuse: predictRefusal,
  prepare: (raw) => withoutAbsentMembers(raw),
});

/**
 * A predictLongRunning body → the core's draft. The schema holds the format's rules (one instance, one sample,
 * refused controls, image shapes); the bytes of each image are probed here; the limits table (durations,
 * resolutions, ratios, input modes) is applied by the use case with PREDICT_FIELD_NAMES.
 */
export function decodePredictRequest(body: PredictRequestBody): VideoRequestDraft {
  const inst = body.instances[0]!; // the schema takes exactly one instance
  const params: NonNullable<PredictRequestBody['parameters']> = body.parameters ?? {};
  const references: VideoImage[] | undefined = inst.referenceImages?.map((r, i) =>
    decodeInlineImage(r.image, `instances[0].referenceImages[${i}].image`),
  );
  return {
    prompt: inst.prompt,
    firstFrame: inst.image ? decodeInlineImage(inst.image, 'instances[0].image') : undefined,
    lastFrame: inst.lastFrame ? decodeInlineImage(inst.lastFrame, 'instances[0].lastFrame') : undefined,
    referenceImages: references,
    // Passed through untyped on purpose: the limits table owns the duration/ratio/resolution messages.
    durationSeconds: params.durationSeconds as number | undefined,
    aspectRatio: params.aspectRatio as string | undefined,
    resolution: params.resolution as string | undefined,
    generateAudio: params.generateAudio,
    fieldNames: PREDICT_FIELD_NAMES,
  };
}
