import type { Request, Response } from 'express';
import { digestsEqual, GatewayError, hashApiKey, type AuditActor, type AuditContext, type KeyAdministration } from '@gateway/core';
import { adminRouteOf, changedBy, extractKey, type AdminContext } from '@gateway/http-kit';

/** The catalogue's kinds of entry, each with its admin path (`/admin/providers`, …). */
export type CatalogueKind = 'provider' | 'model' | 'group';

/** The catalogue's entries as the admin routes change them; the composition root checks a change against the whole config. */
export interface CatalogueAdmin {
  /** the same entries, recording `author` as the author of their changes */
  as(author: AuditContext): CatalogueAdmin;
  listEntries(kind: CatalogueKind): Promise<Array<Record<string, unknown>>>;
  putEntry(kind: CatalogueKind, id: string, body: unknown): Promise<Record<string, unknown>>;
  deleteEntry(kind: CatalogueKind, id: string): Promise<void>;
}

/** What the account, key and catalogue routes of /admin work with. */
export interface AdminDeps {
  admin: KeyAdministration;
  catalogue: CatalogueAdmin;
}

/** Every /admin route here: the admin key (or the CLI's local token), OpenAI's error shape. */
export const adminRoute = adminRouteOf<AdminDeps>();

/** Key administration recording the caller as the author of its changes. */
export const adminAs = (ctx: AdminContext<AdminDeps>, req: Request) => ctx.deps.admin.as(changedBy(ctx, req));

/** The catalogue's entries, changed with the caller as author. */
export const catalogueAs = (ctx: AdminContext<AdminDeps>, req: Request) => ctx.deps.catalogue.as(changedBy(ctx, req));

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Every /admin route needs GATEWAY_ADMIN_KEY as a bearer token; without one configured the API is off. The local
 * token (the CLI's, from DATA_DIR's credential file) is accepted too, from loopback callers only, and so is a
 * platform admin's single sign-on session (sso/sso-session.ts sets res.locals.ssoPlatformAdmin to its subject).
 */
export function adminKeyGate(adminKey: string | undefined, localToken?: string): (req: Request, res: Response) => AuditActor {
  const expected = adminKey ? hashApiKey(adminKey) : null;
  const local = localToken ? hashApiKey(localToken) : null;
  return (req, res) => {
    const presented = extractKey(req);
    const ssoSubject: unknown = res.locals.ssoPlatformAdmin;
    if (!presented && typeof ssoSubject === 'string') return { type: 'sso', id: ssoSubject };
    if (local && presented && LOOPBACK.has(req.socket.remoteAddress ?? '') && digestsEqual(hashApiKey(presented), local))
      return { type: 'cli', id: 'cli' };
    if (!expected)
      throw new GatewayError('permission_denied', 'The admin API is disabled: set GATEWAY_ADMIN_KEY.', { code: 'admin_disabled' });
    if (!presented || !digestsEqual(hashApiKey(presented), expected))
      throw new GatewayError('unauthenticated', 'The admin API needs the admin key.', { code: 'invalid_admin_key' });
    return { type: 'admin_key', id: 'admin' };
  };
}
