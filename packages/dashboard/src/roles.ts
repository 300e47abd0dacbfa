/**
 * Who is signed in, as the gateway says: the platform admin (the admin key), an account admin or a member (an
 * account's key, its role read from GET /v1/me). The navigation shows only the pages the caller can use.
 */
export type Caller = 'platform' | 'admin' | 'member';

const EVERYONE: Caller[] = ['platform', 'admin', 'member'];
const MANAGERS: Caller[] = ['platform', 'admin'];

const NAV: Array<{ to: string; label: string; who: Caller[] }> = [
  { to: '', label: 'Overview', who: EVERYONE },
  { to: 'accounts', label: 'Accounts', who: ['platform'] },
  { to: 'catalogue', label: 'Catalogue', who: ['platform'] },
  { to: 'mcp', label: 'MCP servers', who: ['platform'] },
  { to: 'keys', label: 'Keys', who: MANAGERS },
  { to: 'webhooks', label: 'Webhooks', who: ['admin'] },
  { to: 'usage', label: 'Usage', who: EVERYONE },
  { to: 'tasks', label: 'Tasks', who: EVERYONE },
  { to: 'batches', label: 'Batches', who: EVERYONE },
  { to: 'models', label: 'Models', who: EVERYONE },
  { to: 'audit', label: 'Audit', who: MANAGERS },
  { to: 'playground', label: 'Playground', who: EVERYONE },
];

export const navFor = (caller: Caller) => NAV.filter((n) => n.who.includes(caller)).map(({ to, label }) => ({ to, label }));

/** A page the caller's navigation does not show (typed into the address bar) is refused the same way. */
export const mayOpen = (caller: Caller, section: string) => NAV.find((n) => n.to === section)?.who.includes(caller) ?? true;

export const CALLER_LABEL: Record<Caller, string> = { platform: 'Platform admin', admin: 'Account admin', member: 'Member' };
