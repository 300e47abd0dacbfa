import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { StoredConversation, StoredTurn } from '../ports/conversation-store.port';
import { collectStream, type TextRequest, type TextResult, type TextStreamPart } from '../text';
import type { StoredConversations } from './stored-conversations';
import type { TextCallMeta, TextGeneration } from './text-generation';

/** One turn of a stored conversation (OpenAI Responses): what it continues, what it sends, whether it is kept. */
export interface ConversationTurn {
  id: string;
  createdAt: Date;
  model: string;
  previousResponseId: string | null;
  /** the history this turn sends: the previous turn's conversation plus this turn's input */
  conversation: StoredConversation;
  request: TextRequest;
  /** false: nothing is stored (`store: false`) */
  store: boolean;
}

/** The wire format's rendering of a finished turn: opaque here, replayed by reads. */
export type ResponseDocument = Record<string, unknown>;

export interface ResponsesConversationDeps {
  text: Pick<TextGeneration, 'generate' | 'stream'>;
  conversations: StoredConversations;
}

/**
 * Load the previous response, generate, store: a conversation turn. A turn is stored only after it succeeded,
 * so a failed or abandoned request leaves nothing behind.
 */
export class ResponsesConversation {
  constructor(private readonly deps: ResponsesConversationDeps) {}

  /** The caller's own stored response; anyone else's id gets the very same 404 as an unknown one. */
  async load(principal: Principal, id: string, param: string): Promise<StoredTurn> {
    const found = await this.find(principal, id);
    if (!found) throw new GatewayError('not_found', `Response with id '${id}' not found.`, { code: 'response_not_found', param });
    return found;
  }

  /** The caller's own stored response, or null. */
  find(principal: Principal, id: string): Promise<StoredTurn | null> {
    return this.deps.conversations.find(principal, 'response', id);
  }

  /** The previous turn a request continues, when it names one. */
  async previous(principal: Principal, previousResponseId: string | null): Promise<StoredTurn | undefined> {
    return previousResponseId ? this.load(principal, previousResponseId, 'previous_response_id') : undefined;
  }

  async delete(principal: Principal, id: string): Promise<void> {
    await this.load(principal, id, 'response_id');
    await this.deps.conversations.delete(principal, 'response', id);
  }

  /** Generates the turn, renders it in the caller's format and stores that rendering. */
  async generate(
    principal: Principal,
    turn: ConversationTurn,
    meta: TextCallMeta,
    render: (result: TextResult) => ResponseDocument,
  ): Promise<{ result: TextResult; document: ResponseDocument }> {
    const result = await this.deps.text.generate(principal, turn.request, meta);
    const document = render(result);
    await this.save(principal, turn, document, result);
    return { result, document };
  }

  /**
   * Streams the turn. `complete` is called once the parts ran out, with the format's rendering of the whole
   * answer (undefined when the upstream stopped before it finished), and stores it.
   */
  stream(
    principal: Principal,
    turn: ConversationTurn,
    meta: TextCallMeta,
  ): { parts: AsyncGenerator<TextStreamPart>; complete(document: ResponseDocument | undefined): Promise<void> } {
    const seen: TextStreamPart[] = [];
    const upstream = this.deps.text.stream(principal, turn.request, meta);
    async function* recorded(): AsyncGenerator<TextStreamPart> {
      for await (const part of upstream) {
        seen.push(part);
        yield part;
      }
    }
    return {
      parts: recorded(),
      complete: async (document) => {
        if (!document)
          throw new GatewayError('upstream_error', 'The upstream stream ended before it finished.', { code: 'incomplete_stream' });
        await this.save(principal, turn, document, await collectStream(turn.model, replay(seen)));
      },
    };
  }

  private async save(principal: Principal, turn: ConversationTurn, document: ResponseDocument, result: TextResult): Promise<void> {
    if (!turn.store) return;
    await this.deps.conversations.keep(principal, {
      kind: 'response',
      id: turn.id,
      model: turn.model,
      previousId: turn.previousResponseId,
      createdAt: turn.createdAt,
      sent: turn.conversation,
      result,
      document,
    });
  }
}

async function* replay(parts: TextStreamPart[]): AsyncGenerator<TextStreamPart> {
  yield* parts;
}
