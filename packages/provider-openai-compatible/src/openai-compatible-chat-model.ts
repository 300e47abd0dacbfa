import { ChatCompletionsModel, type ChatDialect, type UpstreamClient } from '@gateway/provider-kit';

/** Chat completions against a compatible server: the shared chat dialect with the operator's quirks. */
export class OpenAiCompatibleChatModel extends ChatCompletionsModel {
  constructor(transport: UpstreamClient, dialect: ChatDialect, chatPath: string) {
    super(transport, dialect, chatPath);
  }
}
