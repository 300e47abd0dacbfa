import { ChatCompletionsModel, OPENAI_CHAT_DIALECT, type UpstreamClient } from '@gateway/provider-kit';

/** OpenAI chat completions: the shared chat dialect with OpenAI's own settings. */
export class OpenAiChatModel extends ChatCompletionsModel {
  constructor(transport: UpstreamClient) {
    super(transport, OPENAI_CHAT_DIALECT);
  }
}
