import { GatewayError, type AuditChange, type AuditContext, type SsoSessionStore } from '@gateway/core';
import { routeOf, type Route } from '@gateway/http-kit';

/**
 * The audit log over the session store: `run` ends sessions and writes the change's record in one transaction, as
 * core's AuditedChanges does for keys and webhooks.
 */
export interface AuditedSessionChanges {
  run<T>(
    ctx: AuditContext,
    change: (sessions: Pick<SsoSessionStore, 'endSessionsOf'>) => Promise<{ result: T; audit: AuditChange | null }>,
  ): Promise<T>;
}

export interface EndSessionsDeps {
  /** ending a person's sessions is recorded with the platform admin who did it */
  audit: AuditedSessionChanges;
}

type AdminKey = { kind: 'admin-key' };
const declare = routeOf<EndSessionsDeps>();

/**
 * A platform admin ends another person's dashboard sessions at once (a lost laptop, a person leaving): their cookies
 * open nothing from the next request on. The person can sign in again while a role is mapped to them, so removing
 * the mapping (config `sso.roles`) is what keeps them out; this ends what is already open.
 */
export const endSessionsRoute = declare<AdminKey>({
  method: 'delete',
  path: '/admin/sso/sessions',
  summary: "End a person's dashboard sessions",
  description:
    'Deletes every single sign-on session of the subject (as the identity provider names the person; the audit log and `GET /sso/session` show it). Audited as `sso_session.end` when one was open.',
  format: 'admin',
  auth: { kind: 'admin-key' },
  errors: 'openai',
  params: [{ name: 'subject', in: 'query', required: true, description: "The person's subject at the identity provider." }],
  response: {
    description: 'How many sessions were ended.',
    content: {
      'application/json': {
        type: 'object',
        properties: { subject: { type: 'string' }, ended: { type: 'integer', minimum: 0 } },
      },
    },
  },
  async handle({ deps, actor, requestId }, req, res) {
    const subject = req.query.subject;
    if (typeof subject !== 'string' || !subject || subject.length > 1000)
      throw new GatewayError('invalid_request', 'Name the person: `?subject=<subject at the identity provider>` (up to 1000 characters).', {
        code: 'invalid_subject',
        param: 'subject',
      });
    const ended = await deps.audit.run({ actor, requestId, address: req.ip ?? null }, async (sessions) => {
      const n = await sessions.endSessionsOf(subject);
      const target = { type: 'sso_subject', id: subject };
      return {
        result: n,
        audit: n ? { action: 'sso_session.end', target, accountId: null, before: { sessions: n }, after: { sessions: 0 } } : null,
      };
    });
    res.json({ subject, ended });
  },
}) as Route<EndSessionsDeps>;
