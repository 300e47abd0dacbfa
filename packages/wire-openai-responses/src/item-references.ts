import { invalid, newId, type Principal, type ResponsesConversation } from '@gateway/core';

type Json = Record<string, any>;

/**
 * Output item ids carry their response's id (`msg_<response token><random>`), so an `item_reference`
 * input item (the Vercel AI SDK sends them by default) finds its stored response without an item index.
 */
const ITEM_ID = /^(msg|fc|rs)_([a-z0-9]{24})[a-z0-9]{8}$/;
const RESPONSE_ID = /^resp_([a-z0-9]{24})$/;

/** A new output item id for the response `responseId` (a plain random one for ids of another shape). */
export function newItemIdOf(kind: string, responseId?: string): string {
  const token = responseId ? RESPONSE_ID.exec(responseId)?.[1] : undefined;
  return `${kind}_${token ?? newId('', 12)}${newId('', 4)}`;
}

/**
 * Replaces each `item_reference` with the item it names, from the caller's own stored responses. An id
 * that names no item of this account (unknown, another account's, or of a response stored with `store:
 * false`) is a 400 naming it.
 */
export async function resolveItemReferences(
  conversations: Pick<ResponsesConversation, 'find'>,
  principal: Principal,
  input: unknown,
): Promise<unknown> {
  if (!Array.isArray(input) || !input.some((item: Json) => item?.type === 'item_reference')) return input;
  const documents = new Map<string, Json[]>();
  const out: Json[] = [];
  for (const [i, item] of (input as Json[]).entries()) {
    if (item?.type !== 'item_reference') {
      out.push(item);
      continue;
    }
    const id = typeof item.id === 'string' ? item.id : '';
    const token = ITEM_ID.exec(id)?.[2];
    let output = token ? documents.get(token) : undefined;
    if (token && !output) {
      const stored = await conversations.find(principal, `resp_${token}`);
      output = Array.isArray(stored?.document.output) ? (stored.document.output as Json[]) : [];
      documents.set(token, output);
    }
    const found = output?.find((o) => o?.id === id);
    if (!found) {
      throw invalid(
        'item_reference_not_found',
        `Input item reference ${JSON.stringify(id.slice(0, 200))} names no stored item of this account.`,
        `input[${i}].id`,
      );
    }
    out.push(found);
  }
  return out;
}
