import { watch } from 'node:fs';

/**
 * Every file name that appears in a directory while watched (inotify reports creations and renames with the
 * name), grouped by what `key` extracts from it: e.g. the distinct renders or deliveries of each task.
 */
export function watchNames(dir: string, key: (name: string) => [group: string, item: string] | null) {
  const groups = new Map<string, Set<string>>();
  const watcher = watch(dir, (_event, name) => {
    const k = name ? key(String(name)) : null;
    if (!k) return;
    const set = groups.get(k[0]) ?? new Set<string>();
    set.add(k[1]);
    groups.set(k[0], set);
  });
  return {
    count: (group: string) => groups.get(group)?.size ?? 0,
    close: () => watcher.close(),
  };
}

/** `<task>-<suffix>.mp4…`: the simulator's render of one operation, or one delivery copy in the content store. */
export const mp4OfTask = (name: string): [string, string] | null => {
  const m = /^(task[a-z0-9]+)-([a-z0-9]+)\.mp4/.exec(name);
  return m ? [m[1]!, m[2]!] : null;
};
