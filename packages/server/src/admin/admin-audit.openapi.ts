import type { RouteDoc } from '@gateway/http-kit';
import { auditList, auditParams } from '../self-service/self-service.openapi';

/** The platform admin's audit route (docs/admin.md, "Audit"). */
export const adminAuditRoutes: RouteDoc[] = [
  {
    method: 'get',
    path: '/admin/audit',
    summary: 'The audit log',
    description:
      'Every change to keys, accounts, quotas, budgets, providers, models and groups, newest first, with who made it (admin key, key, CLI), before and after (secrets masked), when and from where. Read-only. `export=csv` for CSV.',
    format: 'admin',
    auth: { kind: 'admin-key' },
    errors: 'openai',
    params: auditParams,
    response: { description: 'The records.', content: { ...auditList, 'text/csv': { type: 'string' } } },
  },
];
