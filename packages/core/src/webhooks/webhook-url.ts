/**
 * Where the gateway may POST webhooks: the server-side fetch rules (https, no credentials in the URL, public
 * addresses only; redirects are never followed, see the sender) unless the operator allows the host with
 * WEBHOOK_ALLOWED_HOSTS, which also allows http for it (local development, tests).
 */
import net from 'node:net';
import { invalid } from '../errors';
import { isForbiddenAddress } from '../network-address';

export interface WebhookUrlRule {
  /** hostnames (or literal addresses) allowed whatever their address, over http too */
  allowedHosts: readonly string[];
}

export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

export function isAllowedHost(rule: WebhookUrlRule, host: string): boolean {
  return rule.allowedHosts.includes(host.toLowerCase());
}

/** The URL if it may be a webhook target by its text alone (the resolved addresses are checked when sending). */
export function checkWebhookUrl(raw: unknown, rule: WebhookUrlRule, param = 'url'): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048)
    throw invalid('invalid_webhook_url', `"${param}" must be a URL of at most 2048 characters.`, param);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('invalid_webhook_url', `"${param}" is not a valid URL.`, param);
  }
  const allowed = isAllowedHost(rule, hostOf(url));
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:'))
    throw invalid('invalid_webhook_url', `"${param}" must be an https:// URL (http only for hosts the operator allows).`, param);
  if (url.username || url.password) throw invalid('invalid_webhook_url', `"${param}" must not carry credentials.`, param);
  if (url.hash) throw invalid('invalid_webhook_url', `"${param}" must not have a #fragment.`, param);
  const host = hostOf(url);
  if (!allowed && (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) && isForbiddenAddress(host))))
    throw invalid(
      'forbidden_webhook_url',
      `"${param}" points to a private, loopback or otherwise non-public address; webhooks go to public https URLs only.`,
      param,
    );
  return url;
}

/** WEBHOOK_ALLOWED_HOSTS: a comma list of host names, lowercased, brackets of IPv6 literals dropped. */
export function parseAllowedHosts(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, ''),
    )
    .filter(Boolean);
}
