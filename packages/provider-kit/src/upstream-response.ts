import type { Readable } from 'node:stream';
import type { GatewayError } from '@gateway/core';
import type { CallGuard } from './call-guard';
import { parseSse, type SseEvent } from './sse-parser';
import { malformedUpstream, mapUpstreamStatus, type UpstreamFailure } from './upstream-errors';
import { checkUpstream, type UpstreamSchema } from './upstream-schema';

const JSON_BODY_LIMIT = 64 * 1024 * 1024;
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * An upstream answer whose body has not been read yet, with its response handlers: json() (checked
 * against the upstream's minimal schema), events() (server-sent events) and body() (binary, as it
 * arrives). Each reads under the call's idle and total timers; reading fails as a GatewayError.
 */
export class UpstreamResponse {
  private consumed = false;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string | undefined>,
    readonly requestId: string | undefined,
    private readonly stream: Readable,
    private readonly guard: CallGuard,
  ) {}

  /** The binary handler: the body as it arrives. */
  async *body(): AsyncGenerator<Buffer> {
    if (this.consumed) throw new Error('upstream body already consumed');
    this.consumed = true;
    const { stream, guard } = this;
    try {
      for await (const chunk of stream) {
        guard.touch();
        yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      }
    } catch (e) {
      throw guard.translate(e);
    } finally {
      guard.finish();
      // An unfinished body means the caller stopped early: drop the socket rather than reuse it mid-response.
      if (!stream.readableEnded) stream.destroy();
    }
  }

  /**
   * The body whole, refused as malformed past `limit` bytes (`what` names it). Read with the stream's own events, not
   * its async iterator: one promise per body instead of several per chunk (issue 40).
   */
  bytes(limit = JSON_BODY_LIMIT, what = 'a body'): Promise<Buffer> {
    if (this.consumed) return Promise.reject(new Error('upstream body already consumed'));
    this.consumed = true;
    const { stream, guard } = this;
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = (e: unknown, body?: Buffer) => {
        stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
        guard.finish();
        // An unfinished body means the read stopped early: drop the socket rather than reuse it mid-response.
        if (!stream.readableEnded) stream.destroy();
        if (body) resolve(body);
        else reject(e);
      };
      const onData = (chunk: Buffer | string) => {
        guard.touch();
        const c = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += c.length;
        if (size > limit) return settle(malformedUpstream(`${what} larger than ${limit} bytes`));
        chunks.push(c);
      };
      const onEnd = () => settle(undefined, Buffer.concat(chunks, size));
      const onError = (e: unknown) => settle(guard.translate(e));
      // closed without its end (a reset, our timers' abort): what node's iterator calls a premature close
      const onClose = () => settle(guard.translate(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
      if (stream.destroyed) return onClose();
      stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    });
  }

  async text(limit = JSON_BODY_LIMIT): Promise<string> {
    return (await this.bytes(limit)).toString('utf8');
  }

  /** The JSON handler: the body checked against the upstream's minimal schema (`<p>-api.ts`); `what` names it in errors. */
  async json<T>(schema: UpstreamSchema<T>, what: string): Promise<T> {
    const text = (await this.bytes()).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw malformedUpstream('a body that is not valid JSON');
    }
    return checkUpstream(schema, value, what);
  }

  /** The event-stream handler: the body as server-sent events. */
  events(): AsyncGenerator<SseEvent> {
    return parseSse(this.body());
  }

  /** Abandons the body. */
  close(): void {
    this.guard.finish();
    if (!this.stream.readableEnded) this.stream.destroy();
  }

  /** A non-2xx answer → GatewayError through the provider's describeFailure (or the kit's status table). */
  async failure(describe?: (f: UpstreamFailure) => GatewayError): Promise<GatewayError> {
    let bodyText = '';
    try {
      bodyText = await this.text(ERROR_BODY_LIMIT);
    } catch {
      this.close();
    }
    let json: unknown;
    try {
      json = bodyText ? JSON.parse(bodyText) : undefined;
    } catch {
      json = undefined;
    }
    const f: UpstreamFailure = { status: this.status, headers: this.headers, bodyText, json, requestId: this.requestId };
    return describe ? describe(f) : mapUpstreamStatus(f, {});
  }
}
