import { Readable } from 'node:stream';
import { GatewayError, type OperationRef, type VideoModelPort, type VideoRequest, type VideoStatus } from '@gateway/provider-kit';
import { malformedUpstream, openDownload, type UpstreamClient } from '@gateway/provider-kit';
import { modelPath } from './google-chat-model';
import { veoOperationSchema, type VeoOperation, type VeoPersonGeneration } from './google-video-api';
import { checkVeoRequest, convertToGoogleVideo } from './convert-to-google-video';
import { mapGoogleOperation } from './map-google-operation';

const OPERATION_NAME = /^[A-Za-z0-9._\-/]{1,300}$/;

/** The ref is the operation name, `models/m/operations/x`. */
export function decodeVeoRef(ref: string): string {
  if (!OPERATION_NAME.test(ref) || ref.includes('..')) {
    throw new GatewayError('upstream_error', 'The stored Veo operation reference is not readable.', { code: 'operation_not_found' });
  }
  return ref;
}

/**
 * Veo through the Gemini API: predictLongRunning, then the operation, then the sample's URI (fetched
 * with the key only on the API's own origin; a redirect to a storage host goes there without it).
 * Exactly-once: the Gemini API takes no idempotency key and lists no operations, so idempotentStart
 * stays off and a lost submission fails with submission_unknown (docs/providers/veo.md).
 */
export class GoogleVideoModel implements VideoModelPort {
  constructor(
    private readonly http: UpstreamClient,
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
    return op.name;
  }

  async status(ref: OperationRef, ctx: { signal?: AbortSignal }): Promise<VideoStatus> {
    const name = decodeVeoRef(ref);
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
    return mapGoogleOperation(op, async (sample) => {
      if (sample.uri) return openDownload(this.http)(sample.uri);
      return Readable.from([Buffer.from(sample.encodedVideo ?? '', 'base64')]);
    });
  }
}
