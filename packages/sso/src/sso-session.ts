import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { GatewayError, type Principal, type SsoSession, type SsoSessionStore } from '@gateway/core';
import { extractKey, openAiErrorShape, requestOrigin, sendError, type SessionIdentity, type SessionLookup } from '@gateway/http-kit';
import { grantFor, type SsoRoleMapping } from './sso-grants';

export const SESSION_COOKIE = 'gw_session';
/** Ties a sign-in under way to the browser that started it (login CSRF): the state, readable only at the callback. */
export const LOGIN_COOKIE = 'gw_sso_login';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_TTL_MS = 8 * 3600_000;
export const LOGIN_TTL_MS = 10 * 60_000;

/**
 * A platform admin's session is read on these paths only: they hold the admin-key routes (the admin API, /metrics),
 * none of which calls a model. An account session is read where a route's declaration accepts one (`auth.session`).
 */
const ADMIN_PATHS = /^\/(admin(\/|$)|metrics$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const newSessionToken = () => randomBytes(32).toString('base64url');

/**
 * The CSRF token of a session: derived from its secret token, so it needs no storage, cannot be guessed without the
 * cookie (HttpOnly: no script reads it), and dies with the session. docs/security.md, "Dashboard sessions", says why.
 */
export const csrfTokenFor = (sessionToken: string) => createHash('sha256').update(`csrf:${sessionToken}`, 'utf8').digest('base64url');

export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decoded(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A value that is not valid percent-encoding is no value: a mangled cookie means no session, not a 500. */
function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value) || undefined;
  } catch {
    return undefined;
  }
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

/** Where sessions live and the config file's `sso.roles`, read at each use (the file may have changed since sign-in). */
export interface SessionSource {
  sessions: SsoSessionStore;
  roles: () => Readonly<Record<string, SsoRoleMapping>> | undefined;
}

/**
 * The session of a token with what it may do now: its claim mapped through the current `sso.roles`, so removing a
 * person's mapping (or changing its role) applies at their next request, not at the end of the session. A session
 * whose claim no longer maps to any role is ended.
 */
export async function liveSession(source: SessionSource, token: string): Promise<SsoSession | null> {
  const s = await source.sessions.findSession(token);
  if (!s) return null;
  const grant = grantFor(s.claim, source.roles());
  if (grant) return { ...s, grant };
  await source.sessions.deleteSession(token);
  return null;
}

const csrfRefused = (problem: string) => new GatewayError('permission_denied', problem, { code: 'csrf_refused' });

/**
 * Requests that carry the session cookie and no key may act as the session (a key, when presented, wins): a platform
 * admin on /admin/* as the admin key would; an account session, with its role, on the routes whose declaration
 * accepts a session (requireKey asks res.locals.sessionLookup; the store is read only then). Model calls never do:
 * they take a key. State-changing calls are refused with 403 `csrf_refused` unless they pass the CSRF check.
 */
export function ssoSessionAuth(source: SessionSource, trustProxy: boolean): RequestHandler {
  return (req, res, next) => {
    const token = cookieOf(req, SESSION_COOKIE);
    if (!token || extractKey(req, ['x-api-key', 'x-goog-api-key']) !== undefined) return next();
    const problem = () => (SAFE_METHODS.has(req.method) ? null : csrfProblem(req, token, trustProxy));
    if (!ADMIN_PATHS.test(req.path)) {
      const lookup: SessionLookup = async () => {
        const s = await liveSession(source, token);
        const principal = s && sessionPrincipal(s);
        if (!s || !principal) return undefined;
        const refusal = problem();
        if (refusal) throw csrfRefused(refusal);
        return { principal, actor: { type: 'sso', id: s.subject } } satisfies SessionIdentity;
      };
      res.locals.sessionLookup = lookup;
      return next();
    }
    liveSession(source, token).then((s) => {
      if (!s?.grant.platformAdmin) return next();
      const refusal = problem();
      if (refusal) return sendError(res, csrfRefused(refusal), openAiErrorShape.render);
      res.locals.ssoPlatformAdmin = s.subject;
      next();
    }, next);
  };
}
