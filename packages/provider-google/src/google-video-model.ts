import { Readable } from 'node:stream';
import { GatewayError, type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/core';
import { malformedUpstream, type UpstreamHttp } from '@gateway/provider-kit';
import { modelPath } from './google-chat-model';
import { veoOperationSchema, type VeoOperation, type VeoPersonGeneration } from './google-video-api';
import { checkVeoRequest, convertToGoogleVideo, veoShape } from './convert-to-google-video';
import { mapGoogleOperation, type VeoShape } from './map-google-operation';

const OPERATION_NAME = /^[A-Za-z0-9._\-/]{1,300}$/;

/** The ref is the operation name plus the requested shape: `models/m/operations/x|1280x720|8`. */
export function encodeVeoRef(name: string, s: VeoShape): OperationRef {
  return `${name}|${s.width}x${s.height}|${s.durationSeconds}`;
}

export function decodeVeoRef(ref: string): { name: string; shape: VeoShape } {
  const [name, size, seconds] = ref.split('|');
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(size ?? '');
  if (!name || !OPERATION_NAME.test(name) || name.includes('..') || !m || !/^\d{1,3}$/.test(seconds ?? '')) {
    throw new GatewayError('upstream_error', 'The stored Veo operation reference is not readable.', { code: 'operation_not_found' });
  }
  return { name, shape: { width: Number(m[1]), height: Number(m[2]), durationSeconds: Number(seconds) } };
}

/**
 * Veo through the Gemini API: predictLongRunning, then the operation, then the sample's URI (fetched
 * with the key only on the API's own origin; a redirect to a storage host goes there without it).
 * Exactly-once: the Gemini API takes no idempotency key and lists no operations, so idempotentStart
 * stays off and a lost submission fails with submission_unknown (docs/providers/veo.md).
 */
export class GoogleVideoModel implements VideoModelPort {
  constructor(
    private readonly http: UpstreamHttp,
    private readonly apiVersion: string,
    private readonly opts: { personGeneration?: VeoPersonGeneration } = {},
  ) {}

  check(req: VideoRequest & { upstreamModel: string }): void {
    checkVeoRequest(req);
  }

  async start(req: VideoRequest & { upstreamModel: string }, ctx: { signal?: AbortSignal }): Promise<OperationRef> {
    const op = await this.http.json(
      {
        method: 'POST',
        path: `/${this.apiVersion}/${modelPath(req.upstreamModel)}:predictLongRunning`,
        json: convertToGoogleVideo(req, this.opts),
        signal: ctx.signal,
      },
      veoOperationSchema,
      'an operation',
    );
    if (typeof op?.name !== 'string' || !OPERATION_NAME.test(op.name) || op.name.includes('..'))
      throw malformedUpstream('an operation without a usable name');
    return encodeVeoRef(op.name, { ...veoShape(req), durationSeconds: req.durationSeconds });
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const { name, shape } = decodeVeoRef(ref);
    let op: VeoOperation;
    try {
      op = await this.http.json(
        { method: 'GET', path: `/${this.apiVersion}/${name}`, signal: ctx.signal },
        veoOperationSchema,
        'an operation',
      );
    } catch (e) {
      if (e instanceof GatewayError && e.upstreamStatus === 404) {
        throw new GatewayError('upstream_error', `The upstream (Veo) no longer knows operation ${name}.`, {
          code: 'upstream_task_not_found',
          upstreamStatus: 404,
        });
      }
      throw e;
    }
    return mapGoogleOperation(op, shape, async (sample) => {
      if (sample.uri) return Readable.from((await this.http.download(sample.uri)).body());
      return Readable.from([Buffer.from(sample.encodedVideo ?? '', 'base64')]);
    });
  }
}
