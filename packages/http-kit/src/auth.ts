import type { Request, RequestHandler, Response } from 'express';
import { forbiddenRole, roleOf, type AuditContext, type Principal } from '@gateway/core';
import type { RouteRole } from './route-doc';

export type Authenticator = (rawKey: string | undefined) => Promise<Principal>;

/** The bearer token, or one of the alternative headers a format's SDK sends. */
export function extractKey(req: Request, alternativeHeaders: readonly string[] = []): string | undefined {
  const auth = req.header('authorization');
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    return m ? m[1]!.trim() : auth.trim();
  }
  for (const h of alternativeHeaders) {
    const v = req.header(h);
    if (v) return v.trim();
  }
  // Google's own style next to its header: `?key=` (@ai-sdk/google appends it to download links)
  if (alternativeHeaders.includes('x-goog-api-key') && typeof req.query?.key === 'string' && req.query.key) return req.query.key.trim();
  return undefined;
}

/**
 * Set by an authenticator on an error refusing a caller it did identify (a rate limit): the request's log line then
 * names the account and key (res.locals.refusedPrincipal), though the request never ran as them.
 */
export const REFUSED_PRINCIPAL = Symbol('refused principal');

/**
 * Who a request acts as when it presents no key: a dashboard sign-on session (server/src/sso), on the routes whose
 * declaration accepts one (`auth.session`), with the author its changes are recorded under. A key, when one is
 * presented, wins.
 */
export interface SessionIdentity {
  principal: Principal;
  actor: AuditContext['actor'];
}

/**
 * The request's sign-on session, read from the store only when a route that accepts sessions asks: set on
 * res.locals.sessionLookup by a middleware before the routes. Rejects with the refusal of a state-changing call that
 * fails the session's CSRF check.
 */
export type SessionLookup = () => Promise<SessionIdentity | undefined>;

export function sessionIdentityOf(res: Response): SessionIdentity | undefined {
  return res.locals.sessionIdentity;
}

/** The session a keyless request on a route that accepts sessions acts as (res.locals.sessionIdentity once found). */
async function sessionFor(res: Response): Promise<Principal | undefined> {
  const lookup = res.locals.sessionLookup;
  const session = lookup && (await lookup());
  if (session) res.locals.sessionIdentity = session;
  return session?.principal;
}

/**
 * Sets res.locals.principal (handlers read it from their context); failures go to the route's error handler. A member
 * key on a route that needs an account admin gets 403 `forbidden_role`, in the route's own shape. A dashboard session
 * stands in for a key only where `acceptsSession` (the route's declaration) says so: never on a route calling a model.
 */
export function requireKey(
  authenticate: Authenticator,
  alternativeHeaders: readonly string[] = [],
  role: RouteRole = 'member',
  acceptsSession = false,
): RequestHandler {
  return (req, res, next) => {
    const raw = extractKey(req, alternativeHeaders);
    const principal = async () => (raw === undefined && acceptsSession && (await sessionFor(res))) || authenticate(raw);
    principal().then(
      (p) => {
        res.locals.principal = p;
        if (role === 'admin' && roleOf(p) !== 'admin') return next(forbiddenRole(`${req.method} ${req.path.slice(0, 200)}`));
        next();
      },
      (e: unknown) => {
        const refused = (e as { [REFUSED_PRINCIPAL]?: Principal } | null)?.[REFUSED_PRINCIPAL];
        if (!refused) return next(e);
        res.locals.refusedPrincipal = refused;
        void sniffModel(req).then((model) => {
          res.locals.requestedModel = model;
          next(e);
        });
      },
    );
  };
}

export function principalOf(res: Response): Principal {
  return res.locals.principal!;
}

/** The author of a change made by the request's principal: its key, or the person of a sign-on session. */
export function actorOf(res: Response): AuditContext['actor'] {
  const session = sessionIdentityOf(res);
  return session && res.locals.principal === session.principal ? session.actor : { type: 'key', id: principalOf(res).keyId };
}

/**
 * The `model` of a JSON body the route will not read (the caller was refused before it): looked for in the first
 * 16 KB that arrive within 200 ms, for the refusal's log line only. The rest of the body is left to node to discard.
 */
export function sniffModel(req: Request, maxChars = 16_384, waitMs = 200): Promise<string | undefined> {
  if (!/json/i.test(req.header('content-type') ?? '') || req.readableEnded) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      resolve(/"model"\s*:\s*"((?:[^"\\]|\\.){1,200})"/.exec(text)?.[1]);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.length >= maxChars) done();
    };
    const timer = setTimeout(done, waitMs);
    req.on('data', onData);
    req.on('end', done);
  });
}
