import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { GatewayError, type Principal } from '@gateway/core';
import { extractKey, openAiErrorShape, sendError, type SessionIdentity } from '@gateway/http-kit';
import type { KnexSsoSessions, SsoSession } from '@gateway/store-postgres';
import { requestOrigin } from '@gateway/http-kit';

export const SESSION_COOKIE = 'gw_session';
/** Ties a sign-in under way to the browser that started it (login CSRF): the state, readable only at the callback. */
export const LOGIN_COOKIE = 'gw_sso_login';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_TTL_MS = 8 * 3600_000;
export const LOGIN_TTL_MS = 10 * 60_000;

/**
 * What a session may call: platform admins the admin API and /metrics; account sessions their account's management
 * routes, and read its tasks and the catalogue. Calling models stays with keys.
 */
const ADMIN_PATHS = /^\/(admin(\/|$)|metrics$)/;
const ACCOUNT_PATHS = /^\/v1\/(keys|audit|webhook_endpoints|usage|models)(\/|$)/;
const ACCOUNT_READ_PATHS = /^\/(v1\/contents\/generations\/tasks|v1\/videos|v1beta\/models)(\/|$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const accountMayCall = (req: Request) =>
  ACCOUNT_PATHS.test(req.path) || (SAFE_METHODS.has(req.method) && ACCOUNT_READ_PATHS.test(req.path));

export const newSessionToken = () => randomBytes(32).toString('base64url');

/**
 * The CSRF token of a session: derived from its secret token, so it needs no storage, cannot be guessed without the
 * cookie (HttpOnly: no script reads it), and dies with the session. docs/security.md, "Dashboard sessions", says why.
 */
export const csrfTokenFor = (sessionToken: string) => createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');

export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim()) || undefined;
  }
  return undefined;
}

/** HttpOnly and SameSite=Lax always (Lax: the provider's redirect back is a cross-site navigation), Secure over https. */
export function setCookie(
  res: Response,
  req: Request,
  trustProxy: boolean,
  name: string,
  value: string,
  opts: { maxAgeMs: number; path: string },
) {
  const secure = requestOrigin(req, trustProxy)?.startsWith('https:') ?? false;
  res.append(
    'Set-Cookie',
    `${name}=${encodeURIComponent(value)}; Path=${opts.path}; Max-Age=${Math.floor(opts.maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

function sameToken(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** A state-changing call with a session must carry the session's CSRF token, and come from this gateway's own pages. */
export function csrfProblem(req: Request, token: string, trustProxy: boolean): string | null {
  const origin = req.header('origin');
  if (origin && origin !== requestOrigin(req, trustProxy)) return `A request from ${origin.slice(0, 100)} cannot use a dashboard session.`;
  const presented = req.header(CSRF_HEADER);
  if (!presented || !sameToken(presented, csrfTokenFor(token)))
    return `A state-changing call with a dashboard session needs the session's ${CSRF_HEADER} header.`;
  return null;
}

export function sessionPrincipal(s: SsoSession): Principal | null {
  if (s.grant.platformAdmin) return null;
  return { accountId: s.grant.accountId, keyId: `sso:${s.subject}`, group: s.grant.group, role: s.grant.role };
}

/**
 * Requests that carry the session cookie and no key act as the session (a key, when presented, wins): a platform
 * admin on /admin/* as the admin key would, an account session on its account's management routes with its role.
 * Other routes (model calls) ignore the cookie: they take a key. State-changing calls are refused with 403
 * `csrf_refused` unless they pass the CSRF check.
 */
export function ssoSessionAuth(sessions: KnexSsoSessions, trustProxy: boolean): RequestHandler {
  return (req, res, next) => {
    const token = cookieOf(req, SESSION_COOKIE);
    const admin = ADMIN_PATHS.test(req.path);
    if (!token || (!admin && !accountMayCall(req)) || extractKey(req, ['x-api-key', 'x-goog-api-key']) !== undefined) return next();
    sessions.findSession(token).then((s) => {
      const principal = s && sessionPrincipal(s);
      if (!s || (admin ? !s.grant.platformAdmin : !principal)) return next();
      if (!SAFE_METHODS.has(req.method)) {
        const problem = csrfProblem(req, token, trustProxy);
        if (problem)
          return sendError(res, new GatewayError('permission_denied', problem, { code: 'csrf_refused' }), openAiErrorShape.render);
      }
      const actor = { type: 'sso' as const, id: s.subject };
      if (admin) res.locals.ssoPlatformAdmin = s.subject;
      else res.locals.sessionIdentity = { principal: principal!, actor } satisfies SessionIdentity;
      next();
    }, next);
  };
}
