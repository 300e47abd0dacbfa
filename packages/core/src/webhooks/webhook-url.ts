/**
 * Where the gateway may POST webhooks: the server-side fetch rules (https, no credentials in the URL, public
 * addresses only; redirects are never followed, see the sender) unless the operator allows the host and port with
 * WEBHOOK_ALLOWED_HOSTS, which also allows http for it (local development, tests). An entry is `host:port`; a bare
 * `host` means its scheme's default port only (80 for http, 443 for https).
 */
import net from 'node:net';
import { invalid } from '../errors';
import { isForbiddenAddress } from '../network-address';

export interface WebhookUrlRule {
  /**
   * `host:port` (or a bare `host`: its scheme's default port) allowed whatever their address, over http or https;
   * as parseAllowedHosts writes them (lowercase, IPv6 literals in brackets)
   */
  allowedHosts: readonly string[];
}

export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Whether the URL's host and port are allowed by WEBHOOK_ALLOWED_HOSTS (over http or https alike). */
export function isAllowedHost(rule: WebhookUrlRule, url: URL): boolean {
  const name = url.hostname.toLowerCase();
  const defaultPort = DEFAULT_PORT[url.protocol];
  const port = url.port || defaultPort;
  return rule.allowedHosts.includes(`${name}:${port}`) || (port === defaultPort && rule.allowedHosts.includes(name));
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
  const allowed = isAllowedHost(rule, url);
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

/**
 * WEBHOOK_ALLOWED_HOSTS: a comma list of `host:port` or bare `host` entries, lowercased, IPv6 literals in brackets
 * (`[::1]:8080`; a bare `::1` is read as the host). Throws on an entry that is neither.
 */
export function parseAllowedHosts(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      let host = entry;
      let port = '';
      if (entry.startsWith('[')) {
        const end = entry.indexOf(']');
        host = end > 0 ? entry.slice(1, end) : '';
        port = entry.slice(end + 1);
        if (port && !port.startsWith(':')) host = '';
        port = port.slice(1);
      } else if (entry.split(':').length === 2) [host = '', port = ''] = entry.split(':');
      const portOk = port === '' || (/^\d{1,5}$/.test(port) && Number(port) > 0 && Number(port) < 65536);
      if (!host || !portOk || /[/@\s]/.test(host))
        throw new Error(`WEBHOOK_ALLOWED_HOSTS: "${entry}" is not host or host:port (IPv6 as [::1]:8080)`);
      const name = host.includes(':') ? `[${host}]` : host;
      return port ? `${name}:${Number(port)}` : name;
    });
}
