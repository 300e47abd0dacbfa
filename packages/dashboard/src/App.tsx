import { useState } from 'react';
import { endSession, loadSession, saveSession, keyHint, type Session } from './session';
import { Link, useRoute } from './router';
import { getJson } from './api';
import { CALLER_LABEL, mayOpen, navFor, type Caller } from './roles';
import { ErrorNote } from './components/bits';
import { useLoad } from './components/use-load';
import { SignIn } from './pages/SignIn';
import { Overview } from './pages/Overview';
import { Keys } from './pages/Keys';
import { Accounts } from './pages/Accounts';
import { Catalogue } from './pages/Catalogue';
import { Webhooks } from './pages/Webhooks';
import { Usage } from './pages/Usage';
import { Tasks } from './pages/Tasks';
import { Batches } from './pages/Batches';
import { TaskPage } from './pages/TaskPage';
import { PlatformTaskPage, PlatformTasks } from './pages/PlatformTasks';
import { Models } from './pages/Models';
import { Audit } from './pages/Audit';
import { Playground } from './pages/Playground';
import { McpServers } from './pages/McpServers';

/** The platform admin signs in with the admin key; an account key's role is the gateway's answer (GET /v1/me). */
async function callerOf(session: Session): Promise<Caller> {
  if (session.role === 'admin') return 'platform';
  // a single sign-on session knows its role from the claim mapping
  if (session.sso) return session.sso.accountRole === 'member' ? 'member' : 'admin';
  const me = await getJson<{ role: 'admin' | 'member' }>(session.key, '/v1/me');
  return me.role === 'admin' ? 'admin' : 'member';
}

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const route = useRoute();
  // the caller's role, as the gateway says (the admin key, or an account key's role from GET /v1/me)
  const caller = useLoad(() => (session ? callerOf(session) : Promise.resolve(null)), [session?.key, session?.role]);
  const update = (s: Session | null) => {
    saveSession(s);
    setSession(s);
  };
  if (!session) return <SignIn onSignedIn={update} />;
  const section = route.split('/')[0] ?? '';
  const useCallKey = (callKey: string) => update({ ...session, callKey });
  const who = caller.data ?? null;
  return (
    <div className="layout">
      <header>
        <strong>Gateway</strong>
        <nav aria-label="Main">
          {who &&
            navFor(who).map(({ to, label }) => (
              <Link key={label} to={to} current={section === to}>
                {label}
              </Link>
            ))}
        </nav>
        <span className="who">
          {session.sso ? `Signed in as ${session.sso.subject}` : session.role === 'admin' ? 'Admin' : `Account key ${keyHint(session.key)}`}
          {who && <span className="badge">{CALLER_LABEL[who]}</span>}
          <button type="button" onClick={() => void endSession(session).then(() => update(null))}>
            Sign out
          </button>
        </span>
      </header>
      <main>
        <ErrorNote error={caller.error} />
        {who &&
          (mayOpen(who, section) ? page(section, route, session, who, useCallKey) : <p className="note">This page is not for this key.</p>)}
      </main>
    </div>
  );
}

/** The platform admin reads every account's tasks (read only); an account's callers theirs, through the public API. */
function tasksPage(route: string, s: Session, who: Caller) {
  const id = route.includes('/') ? decodeURIComponent(route.split('/')[1] ?? '') : null;
  if (who === 'platform') return id === null ? <PlatformTasks session={s} /> : <PlatformTaskPage session={s} id={id} />;
  return id === null ? <Tasks session={s} /> : <TaskPage session={s} id={id} />;
}

function page(section: string, route: string, s: Session, who: Caller, useCallKey: (k: string) => void) {
  switch (section) {
    case '':
      return <Overview session={s} />;
    case 'keys':
      return <Keys session={s} caller={who} onUseKey={useCallKey} />;
    case 'accounts':
      return <Accounts session={s} />;
    case 'catalogue':
      return <Catalogue session={s} />;
    case 'mcp':
      return <McpServers session={s} />;
    case 'webhooks':
      return <Webhooks session={s} caller={who} />;
    case 'usage':
      return <Usage session={s} caller={who} />;
    case 'tasks':
      return tasksPage(route, s, who);
    case 'batches':
      return <Batches session={s} />;
    case 'models':
      return <Models session={s} />;
    case 'audit':
      return <Audit session={s} caller={who} />;
    case 'playground':
      return <Playground session={s} />;
    default:
      return <h1>Not found</h1>;
  }
}
