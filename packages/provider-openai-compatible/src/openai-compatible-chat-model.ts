import { ChatCompletionsModel, type ChatDialect, type UpstreamTransport } from '@gateway/provider-kit';

/** Chat completions against a compatible server: the shared chat dialect with the operator's quirks. */
export class OpenAiCompatibleChatModel extends ChatCompletionsModel {
  constructor(transport: UpstreamTransport, dialect: ChatDialect, chatPath: string) {
    super(transport, dialect, chatPath);
  }
}
