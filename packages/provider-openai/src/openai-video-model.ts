import { type OperationRef, type VideoArtifact, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { generationFailed, openDownload, upstreamTaskIds, type UpstreamCall, type UpstreamClient } from '@gateway/provider-kit';
import { openAiVideoSchema, type OpenAiVideo } from './openai-video-api';
import { checkSoraRequest, convertToOpenAiVideo } from './convert-to-openai-video';

const videos = upstreamTaskIds('Sora', 'no longer knows video');

/**
 * The delivered shape as the video object states it: `size` ("1280x720") and `seconds` ("8"). The object names no
 * frame rate, and what it leaves out stays out: the worker then measures the stored file instead of billing the request.
 */
function soraShape(v: OpenAiVideo): Pick<VideoArtifact, 'width' | 'height' | 'durationSeconds'> {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(v.size ?? '');
  const w = m ? Number(m[1]) : 0;
  const h = m ? Number(m[2]) : 0;
  const seconds = /^\d+(\.\d+)?$/.test(v.seconds ?? '') ? Number(v.seconds) : 0;
  return { ...(w > 0 && h > 0 ? { width: w, height: h } : {}), ...(seconds > 0 ? { durationSeconds: seconds } : {}) };
}

/** A video object → the port's status; the content route streams the MP4. */
export function mapOpenAiVideo(v: OpenAiVideo, open: () => Promise<NodeJS.ReadableStream>): VideoStatus {
  const progress = typeof v.progress === 'number' ? v.progress : undefined;
  switch (v.status) {
    case 'queued':
      return { state: 'pending', running: false, progress };
    case 'completed':
      return { state: 'succeeded', artifact: { ...soraShape(v), open } };
    case 'failed':
      return generationFailed(v.error?.code, v.error?.message);
    default:
      // in_progress, or a word this adapter does not know yet: still working (the gateway's expiry bounds it)
      return { state: 'pending', running: true, progress };
  }
}

/**
 * Sora through the OpenAI videos API: multipart create, retrieve, content. Exactly-once: the API takes
 * no idempotency key and a video object does not carry the gateway's task, so idempotentStart stays off
 * and a lost submission fails with submission_unknown (docs/providers/sora.md).
 */
export class OpenAiVideoModel implements VideoModelPort {
  /** Sora remixes natively: `POST /videos/{id}/remix` with the new prompt. */
  readonly remix = true;

  constructor(private readonly http: UpstreamClient) {}

  check(req: VideoRequest & { upstreamModel: string }): void {
    checkSoraRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const v = await this.http.json(this.createCall(req, ctx.signal), openAiVideoSchema, 'a created video');
    return videos.created(v?.id, 'a created video without a usable id');
  }

  /** A remix is a create on the source video (never a fresh video in its place: a bad source id is not found). */
  private createCall(req: VideoRequest & { upstreamModel: string }, signal?: AbortSignal): UpstreamCall {
    if (!req.remixOf) return { method: 'POST', path: '/videos', form: convertToOpenAiVideo(req), signal };
    return { method: 'POST', path: `/videos/${videos.decode(req.remixOf.operation)}/remix`, json: { prompt: req.prompt ?? '' }, signal };
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const id = videos.decode(ref);
    const v = await videos.read(
      id,
      this.http.json({ method: 'GET', path: `/videos/${id}`, signal: ctx.signal }, openAiVideoSchema, 'a video'),
    );
    // The content route may redirect to storage: download() follows it without the key on another host.
    return mapOpenAiVideo(v, () => openDownload(this.http)(`${this.http.baseUrl}/videos/${id}/content`));
  }

  /** Best effort: DELETE removes the video upstream (a queued one never renders). */
  async cancel(ref: OperationRef): Promise<void> {
    if (!videos.valid(ref)) return;
    (await this.http.request({ method: 'DELETE', path: `/videos/${ref}` })).close();
  }
}
