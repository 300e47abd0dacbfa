import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';

/** Client routes under /dashboard/ (the server answers every one with index.html). */
export const BASE = '/dashboard/';

const current = () => (location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '').replace(/\/+$/, '');

export function navigate(route: string): void {
  history.pushState(null, '', BASE + route);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): string {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const on = () => setRoute(current());
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return route;
}

export function Link(props: { to: string; children: ReactNode; current?: boolean }) {
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={BASE + props.to} onClick={onClick} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
