import { StartupError } from '../startup-checks';

/** Single sign-on for the dashboard (docs/admin.md, "Single sign-on"): on when OIDC_ISSUER is set. */
export interface OidcEnv {
  /** OIDC_ISSUER: the provider's issuer URL (its discovery document is read from it) */
  issuer: string;
  /** OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: this gateway as a confidential client of the provider */
  clientId: string;
  clientSecret: string;
  /** OIDC_ROLE_CLAIM (default `groups`): the claim whose values the config file's `sso.roles` maps to roles */
  roleClaim: string;
  /** OIDC_SCOPES (default `openid profile email`): some providers release the role claim only for a scope of its own */
  scopes: string;
}

export function oidcFromEnv(e: NodeJS.ProcessEnv): OidcEnv | undefined {
  const issuer = e.OIDC_ISSUER?.trim();
  const clientId = e.OIDC_CLIENT_ID?.trim();
  const clientSecret = e.OIDC_CLIENT_SECRET;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret)
    throw new StartupError('Single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together.', 'oidc_incomplete');
  if (!/^https?:\/\/[^\s]+$/.test(issuer)) throw new StartupError(`OIDC_ISSUER must be an http(s) URL.`, 'oidc_issuer_invalid');
  return {
    issuer,
    clientId,
    clientSecret,
    roleClaim: e.OIDC_ROLE_CLAIM?.trim() || 'groups',
    scopes: e.OIDC_SCOPES?.trim() || 'openid profile email',
  };
}
