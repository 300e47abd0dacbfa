import type { OidcEnv } from '@gateway/sso';
import { StartupError } from './startup-checks';

/** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (all or none), OIDC_ROLE_CLAIM, OIDC_SCOPES: single sign-on, when set. */
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
