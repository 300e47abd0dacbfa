import { ChatCompletionsModel, OPENAI_CHAT_DIALECT, type UpstreamTransport } from '@gateway/provider-kit';

/** OpenAI chat completions: the shared chat dialect with OpenAI's own settings. */
export class OpenAiChatModel extends ChatCompletionsModel {
  constructor(transport: UpstreamTransport) {
    super(transport, OPENAI_CHAT_DIALECT);
  }
}
