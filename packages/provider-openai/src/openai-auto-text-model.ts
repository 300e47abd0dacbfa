import { nativeRequestFor, type CallContext, type TextModelPort, type TextRequest } from '@gateway/provider-kit';
import { RESPONSES_FORMAT } from './openai-responses-api';

/**
 * `api: "auto"` (the default): a request that arrived in the Responses format goes to OpenAI's Responses API,
 * passed through with everything the client sent (reasoning items, hosted tools, include, store); every other
 * request goes to chat completions. So a provider entry without options loses nothing for either kind of client.
 */
export class OpenAiAutoTextModel implements TextModelPort {
  readonly hostedToolFormats: readonly string[];
  /** both APIs run the in-band `moderation` themselves */
  readonly moderatesInBand = true;

  constructor(
    private readonly chat: TextModelPort,
    private readonly responses: TextModelPort,
  ) {
    this.hostedToolFormats = responses.hostedToolFormats ?? [];
  }

  private pick(req: TextRequest): TextModelPort {
    return nativeRequestFor(req, RESPONSES_FORMAT) ? this.responses : this.chat;
  }

  generate(req: TextRequest, ctx: CallContext) {
    return this.pick(req).generate(req, ctx);
  }

  stream(req: TextRequest, ctx: CallContext) {
    return this.pick(req).stream(req, ctx);
  }
}
