import { KnexSsoSessions } from './knex-sso-sessions';
import { describeOnTestDatabases } from '../test/test-databases';

describeOnTestDatabases((target) => {
  describe(`KnexSsoSessions on ${target.name}`, () => {
    let db: Awaited<ReturnType<typeof target.open>>;
    let now = new Date('2030-01-01T00:00:00Z');
    let sessions: KnexSsoSessions;
    beforeAll(async () => {
      db = await target.open();
      sessions = new KnexSsoSessions(db.knex, () => now);
    });
    afterAll(() => db.drop());

    it('finds a session by its token until it expires or is deleted, and stores only the token digest', async () => {
      now = new Date('2030-01-01T00:00:00Z');
      const grant = { platformAdmin: false, accountId: 'alpha', role: 'member', group: 'default' } as const;
      await sessions.createSession('tok-a', { subject: 'alice', claim: ['alpha-members', 'staff'], grant }, 60_000);
      await sessions.createSession('tok-b', { subject: 'bob', claim: ['ops'], grant: { platformAdmin: true } }, 60_000);
      expect(await sessions.findSession('tok-a')).toMatchObject({
        subject: 'alice',
        claim: ['alpha-members', 'staff'],
        grant: { platformAdmin: false, accountId: 'alpha', role: 'member', group: 'default' },
      });
      expect((await sessions.findSession('tok-b'))?.grant).toEqual({ platformAdmin: true });
      expect(await sessions.findSession('tok-c')).toBeNull();
      expect(JSON.stringify(await db.knex('sso_sessions').select())).not.toMatch(/tok-[ab]/);

      await sessions.deleteSession('tok-a');
      expect(await sessions.findSession('tok-a')).toBeNull();
      now = new Date('2030-01-01T00:01:00Z');
      expect(await sessions.findSession('tok-b')).toBeNull();
    });

    it('ends every session of a person, and never answers a row without the claim it signed in with', async () => {
      now = new Date('2030-01-03T00:00:00Z');
      const grant = { platformAdmin: true } as const;
      await sessions.createSession('tok-d1', { subject: 'dora', claim: ['ops'], grant }, 60_000);
      await sessions.createSession('tok-d2', { subject: 'dora', claim: ['ops'], grant }, 60_000);
      await sessions.createSession('tok-e', { subject: 'eve', claim: ['ops'], grant }, 60_000);
      expect(await sessions.endSessionsOf('dora')).toBe(2);
      expect(await sessions.findSession('tok-d1')).toBeNull();
      expect(await sessions.findSession('tok-d2')).toBeNull();
      expect(await sessions.findSession('tok-e')).not.toBeNull();

      // what an instance from before migration 030 writes during a rolling upgrade
      await db.knex('sso_sessions').update({ claim_values: null }).where({ subject: 'eve' });
      expect(await sessions.findSession('tok-e')).toBeNull();
    });

    it('answers a sign-in state once, and not after it expires', async () => {
      now = new Date('2030-01-02T00:00:00Z');
      await sessions.startLogin('state-1', { codeVerifier: 'v1', nonce: 'n1' }, 60_000);
      await sessions.startLogin('state-2', { codeVerifier: 'v2', nonce: 'n2' }, 60_000);
      expect(await sessions.takeLogin('state-1')).toEqual({ codeVerifier: 'v1', nonce: 'n1' });
      expect(await sessions.takeLogin('state-1')).toBeNull();
      now = new Date('2030-01-02T00:01:00Z');
      expect(await sessions.takeLogin('state-2')).toBeNull();
    });
  });
});
