import { useState } from 'react';
import { loadSession, saveSession, keyHint, type Session } from './session';
import { Link, useRoute } from './router';
import { SignIn } from './pages/SignIn';
import { Overview } from './pages/Overview';
import { Keys } from './pages/Keys';
import { Accounts } from './pages/Accounts';
import { Usage } from './pages/Usage';
import { Tasks } from './pages/Tasks';
import { TaskPage } from './pages/TaskPage';
import { Models } from './pages/Models';
import { Playground } from './pages/Playground';

const NAV: Array<[string, string]> = [
  ['', 'Overview'],
  ['keys', 'Keys'],
  ['accounts', 'Accounts'],
  ['usage', 'Usage'],
  ['tasks', 'Tasks'],
  ['models', 'Models'],
  ['playground', 'Playground'],
];

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const route = useRoute();
  const update = (s: Session | null) => {
    saveSession(s);
    setSession(s);
  };
  if (!session) return <SignIn onSignedIn={update} />;
  const section = route.split('/')[0] ?? '';
  const useCallKey = (callKey: string) => update({ ...session, callKey });
  return (
    <div className="layout">
      <header>
        <strong>Gateway</strong>
        <nav aria-label="Main">
          {NAV.map(([to, label]) => (
            <Link key={label} to={to} current={section === to}>
              {label}
            </Link>
          ))}
        </nav>
        <span className="who">
          {session.role === 'admin' ? 'Admin' : `Account key ${keyHint(session.key)}`}
          <button type="button" onClick={() => update(null)}>
            Sign out
          </button>
        </span>
      </header>
      <main>{page(section, route, session, useCallKey)}</main>
    </div>
  );
}

function page(section: string, route: string, s: Session, useCallKey: (k: string) => void) {
  switch (section) {
    case '':
      return <Overview session={s} />;
    case 'keys':
      return <Keys session={s} onUseKey={useCallKey} />;
    case 'accounts':
      return <Accounts session={s} />;
    case 'usage':
      return <Usage session={s} />;
    case 'tasks':
      return route.includes('/') ? <TaskPage session={s} id={decodeURIComponent(route.split('/')[1] ?? '')} /> : <Tasks session={s} />;
    case 'models':
      return <Models session={s} />;
    case 'playground':
      return <Playground session={s} />;
    default:
      return <h1>Not found</h1>;
  }
}
