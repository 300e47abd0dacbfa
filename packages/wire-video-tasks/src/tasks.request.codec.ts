import { invalid, type VideoRequestDraft } from '@gateway/core';
import { decodeContent, type UrlLoader } from './content-items.codec';

type Json = Record<string, unknown>;

const FIELDS = [
  'model',
  'content',
  'ratio',
  'resolution',
  'duration',
  'generate_audio',
  'priority',
  'service_tier',
  'execution_expires_after',
];
export const SERVICE_TIERS = ['default', 'flex'] as const;
/** Ark's documented window for execution_expires_after, in seconds. */
export const EXPIRES_AFTER_RANGE = Object.freeze({ min: 3600, max: 259200 });

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
}

const present = (v: unknown) => v !== undefined && v !== null;

/** A create body → model, draft and the scheduling fields; ratio/resolution/duration are checked by the limits table. */
export async function decodeCreateTask(body: Json, loadUrl: UrlLoader): Promise<CreateTaskCommand> {
  for (const key of Object.keys(body)) {
    if (!FIELDS.includes(key) && present(body[key])) {
      throw invalid('unsupported_field', `Unknown or unsupported field "${key}"; accepted: ${FIELDS.join(', ')}.`, key);
    }
  }
  if (typeof body.model !== 'string' || !body.model) throw invalid('missing_model', 'The "model" field is required.', 'model');
  if (present(body.generate_audio) && typeof body.generate_audio !== 'boolean') {
    throw invalid('invalid_generate_audio', '"generate_audio" must be true or false.', 'generate_audio');
  }
  if (present(body.priority) && !(Number.isInteger(body.priority) && (body.priority as number) >= 0)) {
    throw invalid('invalid_priority', `"priority" must be a whole number of 0 or more; got ${JSON.stringify(body.priority)}.`, 'priority');
  }
  if (present(body.service_tier) && !(SERVICE_TIERS as readonly unknown[]).includes(body.service_tier)) {
    throw invalid(
      'invalid_service_tier',
      `"service_tier" must be ${SERVICE_TIERS.join(' or ')}; got ${JSON.stringify(body.service_tier)}.`,
      'service_tier',
    );
  }
  const expires = body.execution_expires_after;
  if (
    present(expires) &&
    !(Number.isInteger(expires) && (expires as number) >= EXPIRES_AFTER_RANGE.min && (expires as number) <= EXPIRES_AFTER_RANGE.max)
  ) {
    throw invalid(
      'invalid_execution_expires_after',
      `"execution_expires_after" must be whole seconds from ${EXPIRES_AFTER_RANGE.min} to ${EXPIRES_AFTER_RANGE.max}; got ${JSON.stringify(expires)}.`,
      'execution_expires_after',
    );
  }
  const content = await decodeContent(body.content, loadUrl);
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
  };
}
