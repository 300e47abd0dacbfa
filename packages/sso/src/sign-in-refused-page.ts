import type { Response } from 'express';
import type { SignInRefused } from './oidc-relying-party';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A refused sign-in (no role for this person, a stale or foreign state, the provider's own refusal, a provider that
 * cannot be reached) is a page a person reads, with its status, the reason as a code and the way back; never a 500.
 */
export function sendSignInRefused(res: Response, refusal: SignInRefused): void {
  res
    .status(refusal.status)
    .setHeader('Content-Security-Policy', "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    .setHeader('Cache-Control', 'no-store')
    .type('html')
    .send(
      `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign-in refused</title></head>
<body>
<main>
<h1>Sign-in refused</h1>
<p id="reason">${escapeHtml(refusal.message)}</p>
<p>Reason code: <code>${escapeHtml(refusal.reason)}</code></p>
<p><a href="/dashboard/">Back to the sign-in page</a></p>
</main>
</body>
</html>
`,
    );
}
