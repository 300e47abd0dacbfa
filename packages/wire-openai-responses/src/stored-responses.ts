import {
  GatewayError,
  type Message,
  type Principal,
  type ResponseStore,
  type StoredConversation,
  type StoredResponse,
  type TextResult,
} from '@gateway/core';

/** The caller's own stored response; anyone else's id gets the very same 404 as an unknown one. */
export async function loadStored(store: ResponseStore, p: Principal, id: string, param: string): Promise<StoredResponse> {
  const found = await store.findForAccount(p.accountId, id);
  if (!found) throw new GatewayError('not_found', `Response with id '${id}' not found.`, { code: 'response_not_found', param });
  return found;
}

/** The history a follow-up continues: what was sent, then this response's output (when there is any). */
export function conversationAfter(sent: StoredConversation, result: TextResult): StoredConversation {
  if (!result.content.length) return sent;
  return { ...sent, messages: [...sent.messages, { role: 'assistant', content: result.content }] };
}

/**
 * The messages that produced a stored response: its conversation without the trailing assistant message that
 * conversationAfter appended, which is there exactly when the rendered response has output.
 */
export function inputMessages(stored: Pick<StoredResponse, 'conversation' | 'document'>): Message[] {
  const { messages } = stored.conversation;
  const output = stored.document.output;
  const appended = Array.isArray(output) && output.length > 0 && messages[messages.length - 1]?.role === 'assistant';
  return appended ? messages.slice(0, -1) : messages;
}
