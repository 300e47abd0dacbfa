import { invalid, type VideoRequestDraft } from '@gateway/core';
import { jsonRequestBody, refusalsFromSchema, withoutAbsentMembers } from '@gateway/http-kit';
import { decodeContent, type UrlLoader } from './content-items.codec';
import {
  createTaskRequestSchema,
  createTaskValidationSchema,
  EXPIRES_AFTER_RANGE,
  SERVICE_TIERS,
  type CreateTaskRequestBody,
} from './tasks.request.schema';

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A create body; top-level nulls are absent, as encoders write optional fields, while content items keep theirs for the codec. */
export const createTaskBody = jsonRequestBody<CreateTaskRequestBody>(createTaskValidationSchema, {
  code: 'invalid_request',
  documented: createTaskRequestSchema,
  prepare: (raw) =>
    isRecord(raw)
      ? { ...(withoutAbsentMembers({ ...raw, content: undefined }) as object), ...('content' in raw ? { content: raw.content } : {}) }
      : raw,
  refuse: refusalsFromSchema(
    {
      missing_model: () => 'The "model" field is required.',
      invalid_generate_audio: () => '"generate_audio" must be true or false.',
      invalid_priority: (_at, v) => `"priority" must be a whole number of 0 or more; got ${JSON.stringify(v)}.`,
      invalid_service_tier: (_at, v) => `"service_tier" must be ${SERVICE_TIERS.join(' or ')}; got ${JSON.stringify(v)}.`,
      invalid_webhook_url: () => '"callback_url" must be a URL string.',
      invalid_execution_expires_after: (_at, v) =>
        `"execution_expires_after" must be whole seconds from ${EXPIRES_AFTER_RANGE.min} to ${EXPIRES_AFTER_RANGE.max}; got ${JSON.stringify(v)}.`,
    },
    (key, at, allowed) => invalid('unsupported_field', `Unknown or unsupported field "${key}"; accepted: ${allowed.join(', ')}.`, at),
  ),
});

export const TASK_FIELD_NAMES: NonNullable<VideoRequestDraft['fieldNames']> = {
  prompt: 'content[type=text].text',
  firstFrame: 'content[role=first_frame]',
  lastFrame: 'content[role=last_frame]',
  referenceImages: 'content[role=reference_image]',
  durationSeconds: 'duration',
  aspectRatio: 'ratio',
  resolution: 'resolution',
};

export interface CreateTaskCommand {
  modelId: string;
  draft: VideoRequestDraft;
  priority?: number;
  serviceTier?: string;
  executionExpiresAfter?: number;
  callbackUrl?: string;
}

/** A create body → model, draft and the scheduling fields; ratio/resolution/duration are checked by the limits table. */
export async function decodeCreateTask(body: CreateTaskRequestBody, loadUrl: UrlLoader): Promise<CreateTaskCommand> {
  const content = await decodeContent(body.content, loadUrl);
  const expires = body.execution_expires_after;
  return {
    modelId: body.model,
    draft: {
      ...content,
      durationSeconds: (body.duration ?? undefined) as number | undefined,
      aspectRatio: (body.ratio ?? undefined) as string | undefined,
      resolution: (body.resolution ?? undefined) as string | undefined,
      generateAudio: (body.generate_audio ?? undefined) as boolean | undefined,
      fieldNames: TASK_FIELD_NAMES,
    },
    priority: (body.priority ?? undefined) as number | undefined,
    serviceTier: (body.service_tier ?? undefined) as string | undefined,
    executionExpiresAfter: (expires ?? undefined) as number | undefined,
    callbackUrl: (body.callback_url ?? undefined) as string | undefined,
  };
}
