import type { Request, Response } from 'express';
import type { VideoContent } from '@gateway/core';
import { openAiErrorShape, sendContent, type ParamDoc } from '@gateway/http-kit';
import { decodeVariant } from './videos.query.codec';

/** The query and header a content download reads besides the task id. */
export const videoContentParams: ParamDoc[] = [
  { name: 'variant', in: 'query', description: '`video` (default) or `thumbnail`.', schema: { enum: ['video', 'thumbnail'] } },
  { name: 'range', in: 'header', description: 'One byte range, e.g. `bytes=0-1023`.', schema: { type: 'string' } },
];

export const videoContentResponse = {
  description: 'The bytes (206 for a range).',
  content: {
    'video/mp4': { type: 'string', contentMediaType: 'video/mp4' },
    'image/*': { type: 'string', contentMediaType: 'image/*' },
  },
};

/**
 * A task's MP4 or thumbnail (`?variant=`), inline, one byte range (206) and HEAD, errors in OpenAI's shape: the account's
 * GET /v1/videos/{id}/content and the platform admin's GET /admin/tasks/{id}/content answer alike; `load` says whose.
 */
export async function sendVideoContent(
  req: Request,
  res: Response,
  load: (id: string, variant: 'video' | 'thumbnail') => Promise<VideoContent>,
): Promise<void> {
  const variant = decodeVariant(req.query.variant);
  const id = String(req.params.id);
  const content = await load(id, variant);
  const ext = variant === 'video' ? 'mp4' : content.mediaType === 'image/png' ? 'png' : 'jpg';
  await sendContent(req, res, content, { filename: `${id}.${ext}`, disposition: 'inline', renderError: openAiErrorShape.render });
}
