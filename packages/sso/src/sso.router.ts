import type { Request, Response } from 'express';
import { GatewayError, type SsoSessionStore } from '@gateway/core';
import { jsonContent as json, routeOf, type Route } from '@gateway/http-kit';
import { OidcRelyingParty, SignInRefused, type ModuleLoader, type OidcEnv } from './oidc-relying-party';
import { claimValues, grantFor, type SsoRoleMapping } from './sso-grants';
import { sendSignInRefused } from './sign-in-refused-page';
import {
  cookieOf,
  csrfTokenFor,
  csrfProblem,
  liveSession,
  LOGIN_COOKIE,
  LOGIN_TTL_MS,
  newSessionToken,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  setCookie,
} from './sso-session';
import { endSessionsRoute, type AuditedSessionChanges } from './end-sessions.route';

/** Where sign-ins and refusals are logged (the gateway's logger). */
export interface SsoLogger {
  info(message: string, meta: Record<string, unknown>): unknown;
  warn(message: string, meta: Record<string, unknown>): unknown;
}

export interface SsoRouterDeps {
  oidc: OidcEnv | undefined;
  sessions: SsoSessionStore;
  /** the config file's `sso.roles`, read per sign-in (a config reload applies to the next one) */
  roles: () => Readonly<Record<string, SsoRoleMapping>> | undefined;
  /** the base of this gateway's own URLs (the server's public-links.ts): the callback URL registered with the provider */
  baseUrl: (req: Request) => string;
  trustProxy: boolean;
  logger: SsoLogger;
  audit: AuditedSessionChanges;
  /** loads openid-client (ESM-only) */
  importModule: ModuleLoader;
  /** refuses a client address that starts too many sign-ins (sign-in-rate.ts) */
  signInRate: (req: Request) => Promise<void>;
}

const CALLBACK_PATH = '/sso/callback';

const notConfigured = () =>
  new GatewayError('not_found', 'Single sign-on is not configured on this gateway (OIDC_ISSUER is unset).', { code: 'sso_not_configured' });

/** What the sign-on routes work with: the relying party exists when OIDC is configured. */
export interface SsoDeps extends SsoRouterDeps {
  rp: OidcRelyingParty | undefined;
  cookie(req: Request, res: Response, name: string, value: string, maxAgeMs: number, path?: string): void;
}

export function ssoDeps(deps: SsoRouterDeps): SsoDeps {
  return {
    ...deps,
    rp: deps.oidc && new OidcRelyingParty(deps.oidc, deps.importModule),
    cookie: (req, res, name, value, maxAgeMs, path = '/') => setCookie(res, req, deps.trustProxy, name, value, { maxAgeMs, path }),
  };
}

const why = 'Single sign-on for the dashboard: the browser session (an HttpOnly cookie) is the credential, not a key.';
const html = { 'text/html': { type: 'string' } };
type Public = { kind: 'none'; why: string };
const declare = routeOf<SsoDeps>();
const route = (r: Omit<Route<SsoDeps, Public>, 'format' | 'auth' | 'errors'>) =>
  declare<Public>({ ...r, format: 'sso', auth: { kind: 'none', why }, errors: 'openai' });

/** A refused sign-in is a page for a person, never a 500 (sign-in-refused-page.ts). */
async function refusable(deps: SsoDeps, res: Response, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    if (!(e instanceof SignInRefused)) throw e;
    deps.logger.warn('sso sign-in refused', { reason: e.reason, detail: e.message });
    sendSignInRefused(res, e);
  }
}

/**
 * Dashboard single sign-on (docs/admin.md, "Single sign-on"): /sso/config tells the sign-in page whether to offer it,
 * /sso/login sends the browser to the provider, /sso/callback makes the server-side session, /sso/session tells the
 * dashboard who it is (and its CSRF token), /sso/logout ends the session; a platform admin ends another person's
 * sessions with DELETE /admin/sso/sessions (end-sessions.route.ts).
 */
export const ssoRoutes = [
  route({
    method: 'get',
    path: '/sso/config',
    summary: 'Whether single sign-on is on',
    description: 'The sign-in page offers "Sign in with SSO" when `enabled` is true (OIDC_ISSUER and its client are set).',
    response: {
      description: 'Whether SSO is configured.',
      content: json({ type: 'object', properties: { enabled: { type: 'boolean' } } }),
    },
    handle({ deps }, _req, res) {
      res.setHeader('Cache-Control', 'no-store');
      res.json({ enabled: deps.rp !== undefined });
    },
  }),
  route({
    method: 'get',
    path: '/sso/login',
    summary: 'Start a sign-in',
    description:
      'Redirects to the identity provider (authorization code flow with PKCE). 404 `sso_not_configured` without OIDC settings; 429 `sign_in_rate_exceeded` after 20 sign-ins in a minute from one client address.',
    response: { status: 302, description: 'To the identity provider.', content: {} },
    async handle({ deps }, req, res) {
      const rp = deps.rp;
      if (!rp) throw notConfigured();
      await deps.signInRate(req);
      await refusable(deps, res, async () => {
        const start = await rp.start(deps.baseUrl(req) + CALLBACK_PATH);
        await deps.sessions.startLogin(start.state, { codeVerifier: start.codeVerifier, nonce: start.nonce }, LOGIN_TTL_MS);
        deps.cookie(req, res, LOGIN_COOKIE, start.state, LOGIN_TTL_MS, CALLBACK_PATH);
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, start.url);
      });
    },
  }),
  route({
    method: 'get',
    path: CALLBACK_PATH,
    summary: "The identity provider's answer",
    description:
      'Checks the answer, maps the role claim (config `sso.roles`) and sets the session cookie, then redirects to the dashboard. A refused sign-in (no role mapped, a stale or foreign state, the provider refused) is an HTML page with 400, 403 or 502.',
    params: [
      { name: 'code', in: 'query', description: 'The authorization code.' },
      { name: 'state', in: 'query', description: 'The state the sign-in was started with.' },
    ],
    response: { status: 302, description: 'To the dashboard, signed in; or the refusal page.', content: html },
    async handle({ deps }, req, res) {
      const rp = deps.rp;
      if (!rp) throw notConfigured();
      await refusable(deps, res, async () => {
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
        const values = claimValues(claim);
        const grant = grantFor(values, deps.roles());
        if (!grant)
          throw new SignInRefused(
            403,
            'no_role',
            `You signed in as "${subject}", but no role on this gateway is mapped to you. Ask a platform admin to map one of your groups.`,
          );
        const token = newSessionToken();
        await deps.sessions.createSession(token, { subject, claim: values, grant }, SESSION_TTL_MS);
        deps.cookie(req, res, LOGIN_COOKIE, '', 0, CALLBACK_PATH);
        deps.cookie(req, res, SESSION_COOKIE, token, SESSION_TTL_MS);
        deps.logger.info('sso sign-in', {
          subject,
          platformAdmin: grant.platformAdmin,
          account: grant.platformAdmin ? null : grant.accountId,
        });
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, '/dashboard/');
      });
    },
  }),
  route({
    method: 'get',
    path: '/sso/session',
    summary: 'Who the session is',
    description:
      'The subject, what it may do, and the CSRF token its state-changing calls send as `X-CSRF-Token`. 401 `no_session` without one.',
    response: {
      description: 'The session.',
      content: json({
        type: 'object',
        properties: {
          subject: { type: 'string' },
          platform_admin: { type: 'boolean' },
          account: { type: ['string', 'null'] },
          role: { enum: ['admin', 'member', null] },
          expires_at: { type: 'string', description: 'ISO 8601' },
          csrf_token: { type: 'string' },
        },
      }),
    },
    async handle({ deps }, req, res) {
      res.setHeader('Cache-Control', 'no-store');
      const token = cookieOf(req, SESSION_COOKIE);
      const s = token ? await liveSession(deps, token) : null;
      if (!token || !s) throw new GatewayError('unauthenticated', 'No dashboard session: sign in.', { code: 'no_session' });
      res.json({
        subject: s.subject,
        platform_admin: s.grant.platformAdmin,
        account: s.grant.platformAdmin ? null : s.grant.accountId,
        role: s.grant.platformAdmin ? null : s.grant.role,
        expires_at: s.expiresAt.toISOString(),
        csrf_token: csrfTokenFor(token),
      });
    },
  }),
  route({
    method: 'post',
    path: '/sso/logout',
    summary: 'Sign out',
    description: 'Deletes the session (its cookie no longer works anywhere) and clears the cookie. Needs `X-CSRF-Token`.',
    response: { description: 'Signed out.', content: json({ type: 'object', properties: { signed_out: { type: 'boolean' } } }) },
    async handle({ deps }, req, res) {
      const token = cookieOf(req, SESSION_COOKIE);
      if (token) {
        const problem = csrfProblem(req, token, deps.trustProxy);
        if (problem) throw new GatewayError('permission_denied', problem, { code: 'csrf_refused' });
        await deps.sessions.deleteSession(token);
      }
      deps.cookie(req, res, SESSION_COOKIE, '', 0);
      res.json({ signed_out: true });
    },
  }),
  endSessionsRoute as Route<SsoDeps>,
];
