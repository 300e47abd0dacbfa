import { useCallback, useEffect, useState, type FormEvent } from 'react';

/** Loads once per change of `deps` (and on `reload()`), keeping the last value while a reload runs. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | null; reload: () => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    let live = true;
    run().then(
      (d) => live && (setData(d), setError(null)),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [run, tick]);
  return { data, error, reload: () => setTick((t) => t + 1) };
}

/** Calls `fn` every `ms` while `active`; the page polls a task the same way a client would. */
export function useInterval(fn: () => void, ms: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const t = setInterval(fn, ms);
    return () => clearInterval(t);
  }, [fn, ms, active]);
}

/** A form that sends one change and says what the gateway refused; `onDone` after a success. */
export function useSubmit(send: () => Promise<unknown>, onDone: () => void = () => {}) {
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await send();
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return { error, submit };
}
