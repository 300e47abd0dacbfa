import { type TextStreamPart, droppedContent, type Warning } from '@gateway/provider-kit';
import { truncatedStream } from '@gateway/provider-kit';
import type { GoogleResponse, GoogleUsage } from './google-api';
import { googleStreamError } from './google-error';
import { mapGoogleFinishReason, mapGoogleUsage } from './map-google-finish-reason';
import { blockedPrompt } from './map-google-response';
import { randomCallId, readGooglePart, type CallIdFactory } from './map-google-parts';

/**
 * streamGenerateContent chunks → canonical parts. Each chunk is a whole GenerateContentResponse
 * holding only new parts; a function call arrives whole. Gemini has no end marker besides EOF, so a
 * stream that ends without any finishReason counts as truncated.
 */
export class GoogleStreamMapper {
  private finishReason: string | undefined;
  private usage: GoogleUsage | undefined;
  private toolCalls = 0;
  private readonly warnings: Warning[];

  constructor(
    private readonly extra: { warnings: Warning[]; upstreamRequestId?: string },
    private readonly newCallId: CallIdFactory = randomCallId,
  ) {
    this.warnings = [...extra.warnings];
  }

  push(chunk: GoogleResponse): TextStreamPart[] {
    if (chunk.error) throw googleStreamError(chunk.error);
    const blocked = blockedPrompt(chunk);
    if (blocked) throw blocked;
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    const out: TextStreamPart[] = [];
    for (const part of candidate?.content?.parts ?? []) {
      for (const item of readGooglePart(part, this.newCallId)) {
        if (item.kind === 'reasoning') {
          if (item.text || item.signature)
            out.push({ type: 'reasoning-delta', delta: item.text, ...(item.signature ? { signature: item.signature } : {}) });
        } else if (item.kind === 'text') {
          if (item.text) out.push({ type: 'text-delta', delta: item.text });
        } else if (item.kind === 'tool-call') {
          const index = this.toolCalls++;
          out.push({ type: 'tool-call-start', index, id: item.id, name: item.name });
          out.push({ type: 'tool-call-delta', index, argumentsDelta: item.arguments });
        } else this.warnings.push(droppedContent(`parts.${item.what}`, 'part kind has no canonical form; dropped'));
      }
    }
    return out;
  }

  end(): TextStreamPart[] {
    if (!this.finishReason) throw truncatedStream('a finishReason');
    return [
      {
        type: 'finish',
        finishReason: mapGoogleFinishReason(this.finishReason, this.toolCalls > 0),
        usage: mapGoogleUsage(this.usage),
        warnings: this.warnings,
        ...(this.extra.upstreamRequestId ? { upstreamRequestId: this.extra.upstreamRequestId } : {}),
      },
    ];
  }
}
