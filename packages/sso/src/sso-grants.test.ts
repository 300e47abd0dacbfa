import { claimValues, grantFor } from './sso-grants';

const roles = {
  'gw-members': { account: 'alpha', role: 'member' as const },
  'gw-alpha-admins': { account: 'alpha', role: 'admin' as const, group: 'vip' },
  'gw-platform': { platformAdmin: true as const },
};

describe('SSO role mapping', () => {
  it('reads the claim as an array, a single string or a space-separated list', () => {
    expect(claimValues(['a', 'b', 3])).toEqual(['a', 'b']);
    expect(claimValues('a b,c')).toEqual(['a', 'b', 'c']);
    expect(claimValues(undefined)).toEqual([]);
  });

  it('maps to the strongest role any claim value names', () => {
    expect(grantFor(['gw-members'], roles)).toEqual({ platformAdmin: false, accountId: 'alpha', role: 'member', group: 'default' });
    expect(grantFor(['gw-members', 'gw-alpha-admins'], roles)).toEqual({
      platformAdmin: false,
      accountId: 'alpha',
      role: 'admin',
      group: 'vip',
    });
    expect(grantFor(['gw-members', 'gw-platform'], roles)).toEqual({ platformAdmin: true });
  });

  it('gives no role for a value nobody mapped, a missing claim or no mapping at all', () => {
    expect(grantFor(['other'], roles)).toBeNull();
    expect(grantFor(undefined, roles)).toBeNull();
    expect(grantFor(['gw-platform'], undefined)).toBeNull();
  });
});
