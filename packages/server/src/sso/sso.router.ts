import { Router, type Request, type Response } from 'express';
import { GatewayError } from '@gateway/core';
import { errorMiddleware, openAiErrorShape } from '@gateway/http-kit';
import type { KnexSsoSessions } from '@gateway/store-postgres';
import type { SsoRoleMapping } from '../config';
import type { Logger } from '../logger';
import { OidcRelyingParty, SignInRefused } from './oidc-relying-party';
import { grantFor } from './sso-grants';
import { sendSignInRefused } from './sign-in-refused-page';
import {
  cookieOf,
  csrfTokenFor,
  csrfProblem,
  LOGIN_COOKIE,
  LOGIN_TTL_MS,
  newSessionToken,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  setCookie,
} from './sso-session';
import type { OidcEnv } from './oidc-env';

export interface SsoRouterDeps {
  oidc: OidcEnv | undefined;
  sessions: KnexSsoSessions;
  /** the config file's `sso.roles`, read per sign-in (a config reload applies to the next one) */
  roles: () => Readonly<Record<string, SsoRoleMapping>> | undefined;
  /** the base of this gateway's own URLs (public-links.ts): the callback URL registered with the provider */
  baseUrl: (req: Request) => string;
  trustProxy: boolean;
  logger: Logger;
}

const CALLBACK_PATH = '/sso/callback';

const notConfigured = () =>
  new GatewayError('not_found', 'Single sign-on is not configured on this gateway (OIDC_ISSUER is unset).', { code: 'sso_not_configured' });

/**
 * Dashboard single sign-on (docs/admin.md, "Single sign-on"): /sso/config tells the sign-in page whether to offer it,
 * /sso/login sends the browser to the provider, /sso/callback makes the server-side session, /sso/session tells the
 * dashboard who it is (and its CSRF token), /sso/logout ends the session.
 */
export function ssoRouter(deps: SsoRouterDeps): Router {
  const router = Router();
  const rp = deps.oidc && new OidcRelyingParty(deps.oidc);
  const cookie = (req: Request, res: Response, name: string, value: string, maxAgeMs: number, path = '/') =>
    setCookie(res, req, deps.trustProxy, name, value, { maxAgeMs, path });

  router.get('/sso/config', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ enabled: rp !== undefined });
  });

  router.get('/sso/login', async (req, res) => {
    if (!rp) throw notConfigured();
    try {
      const start = await rp.start(deps.baseUrl(req) + CALLBACK_PATH);
      await deps.sessions.startLogin(start.state, { codeVerifier: start.codeVerifier, nonce: start.nonce }, LOGIN_TTL_MS);
      cookie(req, res, LOGIN_COOKIE, start.state, LOGIN_TTL_MS, CALLBACK_PATH);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, start.url);
    } catch (e) {
      if (!(e instanceof SignInRefused)) throw e;
      deps.logger.warn('sso sign-in refused', { reason: e.reason, detail: e.message });
      sendSignInRefused(res, e);
    }
  });

  router.get(CALLBACK_PATH, async (req, res) => {
    if (!rp) throw notConfigured();
    try {
      const state = typeof req.query.state === 'string' ? req.query.state : '';
      // the state must be the one this browser was sent off with, and one this gateway still waits for
      const login = state && state === cookieOf(req, LOGIN_COOKIE) ? await deps.sessions.takeLogin(state) : null;
      if (!login)
        throw new SignInRefused(
          400,
          'invalid_state',
          'This sign-in was not started in this browser, or it took too long. Start again from the sign-in page.',
        );
      const url = new URL(deps.baseUrl(req) + req.originalUrl);
      const { subject, claim } = await rp.finish(url, { state, codeVerifier: login.codeVerifier, nonce: login.nonce });
      const grant = grantFor(claim, deps.roles());
      if (!grant)
        throw new SignInRefused(
          403,
          'no_role',
          `You signed in as "${subject}", but no role on this gateway is mapped to you. Ask a platform admin to map one of your groups.`,
        );
      const token = newSessionToken();
      await deps.sessions.createSession(token, subject, grant, SESSION_TTL_MS);
      cookie(req, res, LOGIN_COOKIE, '', 0, CALLBACK_PATH);
      cookie(req, res, SESSION_COOKIE, token, SESSION_TTL_MS);
      deps.logger.info('sso sign-in', {
        subject,
        platformAdmin: grant.platformAdmin,
        account: grant.platformAdmin ? null : grant.accountId,
      });
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, '/dashboard/');
    } catch (e) {
      if (!(e instanceof SignInRefused)) throw e;
      deps.logger.warn('sso sign-in refused', { reason: e.reason, detail: e.message });
      sendSignInRefused(res, e);
    }
  });

  router.get('/sso/session', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = cookieOf(req, SESSION_COOKIE);
    const s = token ? await deps.sessions.findSession(token) : null;
    if (!token || !s) throw new GatewayError('unauthenticated', 'No dashboard session: sign in.', { code: 'no_session' });
    res.json({
      subject: s.subject,
      platform_admin: s.grant.platformAdmin,
      account: s.grant.platformAdmin ? null : s.grant.accountId,
      role: s.grant.platformAdmin ? null : s.grant.role,
      expires_at: s.expiresAt.toISOString(),
      csrf_token: csrfTokenFor(token),
    });
  });

  router.post('/sso/logout', async (req, res) => {
    const token = cookieOf(req, SESSION_COOKIE);
    if (token) {
      const problem = csrfProblem(req, token, deps.trustProxy);
      if (problem) throw new GatewayError('permission_denied', problem, { code: 'csrf_refused' });
      await deps.sessions.deleteSession(token);
    }
    cookie(req, res, SESSION_COOKIE, '', 0);
    res.json({ signed_out: true });
  });

  router.use('/sso', errorMiddleware(openAiErrorShape.render));
  return router;
}
