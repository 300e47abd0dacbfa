// The public surface of sso: what the composition root mounts and wires.
export { type AuditedSessionChanges } from './end-sessions.route';
export { type OidcEnv } from './oidc-relying-party';
export { signInRate } from './sign-in-rate';
export { type SsoRoleMapping } from './sso-grants';
export { ssoSessionAuth } from './sso-session';
export { ssoDeps, ssoRoutes } from './sso.router';
