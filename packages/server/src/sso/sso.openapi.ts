import type { RouteDoc } from '@gateway/http-kit';

const why = 'Single sign-on for the dashboard: the browser session (an HttpOnly cookie) is the credential, not a key.';
const json = (schema: object) => ({ 'application/json': schema });
const html = { 'text/html': { type: 'string' } };

/** The dashboard's sign-on routes (sso.router.ts; docs/admin.md, "Single sign-on"). */
export const ssoRoutes: RouteDoc[] = [
  {
    method: 'get',
    path: '/sso/config',
    summary: 'Whether single sign-on is on',
    description: 'The sign-in page offers "Sign in with SSO" when `enabled` is true (OIDC_ISSUER and its client are set).',
    format: 'sso',
    auth: { kind: 'none', why },
    errors: 'openai',
    response: {
      description: 'Whether SSO is configured.',
      content: json({ type: 'object', properties: { enabled: { type: 'boolean' } } }),
    },
  },
  {
    method: 'get',
    path: '/sso/login',
    summary: 'Start a sign-in',
    description: 'Redirects to the identity provider (authorization code flow with PKCE). 404 `sso_not_configured` without OIDC settings.',
    format: 'sso',
    auth: { kind: 'none', why },
    errors: 'openai',
    response: { status: 302, description: 'To the identity provider.', content: {} },
  },
  {
    method: 'get',
    path: '/sso/callback',
    summary: "The identity provider's answer",
    description:
      'Checks the answer, maps the role claim (config `sso.roles`) and sets the session cookie, then redirects to the dashboard. A refused sign-in (no role mapped, a stale or foreign state, the provider refused) is an HTML page with 400, 403 or 502.',
    format: 'sso',
    auth: { kind: 'none', why },
    errors: 'openai',
    params: [
      { name: 'code', in: 'query', description: 'The authorization code.' },
      { name: 'state', in: 'query', description: 'The state the sign-in was started with.' },
    ],
    response: { status: 302, description: 'To the dashboard, signed in; or the refusal page.', content: html },
  },
  {
    method: 'get',
    path: '/sso/session',
    summary: 'Who the session is',
    description:
      'The subject, what it may do, and the CSRF token its state-changing calls send as `X-CSRF-Token`. 401 `no_session` without one.',
    format: 'sso',
    auth: { kind: 'none', why },
    errors: 'openai',
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
  },
  {
    method: 'post',
    path: '/sso/logout',
    summary: 'Sign out',
    description: 'Deletes the session (its cookie no longer works anywhere) and clears the cookie. Needs `X-CSRF-Token`.',
    format: 'sso',
    auth: { kind: 'none', why },
    errors: 'openai',
    response: { description: 'Signed out.', content: json({ type: 'object', properties: { signed_out: { type: 'boolean' } } }) },
  },
];
