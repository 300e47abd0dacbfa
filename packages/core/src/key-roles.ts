import type { Principal } from './auth';
import { GatewayError } from './errors';
import type { KeyRole } from './ports/key-repository.port';

/** A principal built without a role (tests, fakes) is a member: the least powers. */
export const roleOf = (p: Pick<Principal, 'role'>): KeyRole => p.role ?? 'member';

/** The 403 a member key gets where an account admin's key is needed; every format renders it in its own shape. */
export function forbiddenRole(what = 'This route'): GatewayError {
  return new GatewayError('permission_denied', `${what} needs an account admin's key (role "admin"); this key is a member.`, {
    code: 'forbidden_role',
  });
}
