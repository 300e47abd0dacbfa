import type { Principal } from './auth';

/**
 * The rule of a key narrowed to its own tasks (`tasks: "own"`): it sees, lists and cancels only the tasks it
 * created; any other task of its account is as missing as an unknown one. A key without the setting sees the account's.
 */
export const seesTask = (p: Pick<Principal, 'keyId' | 'tasks'>, task: { keyId: string }): boolean =>
  p.tasks !== 'own' || task.keyId === p.keyId;

/** The creator a task list is narrowed to: the key itself when it is narrowed, otherwise none. */
export const taskOwnerFilter = (p: Pick<Principal, 'keyId' | 'tasks'>): string | undefined => (p.tasks === 'own' ? p.keyId : undefined);
