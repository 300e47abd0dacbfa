import {
  GatewayError,
  type CallContext,
  type TranscriptionRequest,
  type EmbeddingModelPort,
  type EmbeddingRequest,
  type EmbeddingResult,
  type TranscriptionStreamPart,
} from '@gateway/core';
import { redactingPorts } from './redacting-ports';
import { createRedactor, REDACTED } from './secret-redactor';

const KEY = 'sk-metered-secret-0123456789';
const ctx = { signal: new AbortController().signal, requestId: 'r' };
const request: EmbeddingRequest = { model: 'm', inputs: ['x'] };

/** A class port, as the built-ins are: its methods live on the prototype. */
class LeakyEmbedder implements EmbeddingModelPort {
  constructor(private readonly fail: boolean) {}
  async embed(_request: EmbeddingRequest, _ctx: CallContext): Promise<EmbeddingResult> {
    if (this.fail) throw new GatewayError('upstream_error', `bad key ${KEY}`, { upstreamRequestId: KEY });
    return { embeddings: [[1, 0]], warnings: [{ type: 'other', message: `echo ${KEY}` }], upstreamRequestId: `req-${KEY}` };
  }
}

describe('the metered kinds pass the one redaction point', () => {
  const redact = createRedactor([KEY]);

  it("redacts a class port's errors, warnings and request id, and passes its vectors unchanged", async () => {
    const failing = redactingPorts({ embedding: new LeakyEmbedder(true) }, redact).embedding!;
    const err = (await failing.embed(request, ctx).catch((e: unknown) => e)) as GatewayError;
    expect(err.message).toContain(REDACTED);
    expect(JSON.stringify({ m: err.message, id: err.upstreamRequestId })).not.toContain(KEY);
    const answering = redactingPorts({ embedding: new LeakyEmbedder(false) }, redact).embedding!;
    const out = await answering.embed(request, ctx);
    expect(out.embeddings).toEqual([[1, 0]]);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it('redacts the error that ends a stream', async () => {
    async function* parts(_request: TranscriptionRequest, _ctx: CallContext): AsyncGenerator<TranscriptionStreamPart> {
      yield { type: 'text-delta', delta: 'hello' };
      throw new GatewayError('upstream_error', `stream broke for ${KEY}`);
    }
    const port = redactingPorts(
      { transcription: { transcribe: async () => Promise.reject(new Error('unused')), stream: parts } },
      redact,
    ).transcription!;
    const seen: string[] = [];
    const err = await (async () => {
      for await (const p of port.stream!({ model: 'm', task: 'transcribe', audio: { data: new Uint8Array(), filename: 'a.wav' } }, ctx))
        if (p.type === 'text-delta') seen.push(p.delta);
    })().catch((e: unknown) => e as Error);
    expect(seen).toEqual(['hello']);
    expect((err as Error).message).not.toContain(KEY);
  });
});
