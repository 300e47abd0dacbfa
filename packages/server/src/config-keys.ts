/** Characters a config-file key needs after `sk-`: shorter ones are guessable, so start-up stops on them. */
export const MIN_CONFIG_KEY_SECRET = 16;

/** The first config-file key that is too short, as a field and a message for ConfigError; null when all are fine. */
export function shortConfigKey(keys: ReadonlyArray<{ key: string }> = []): { field: string; message: string } | null {
  const i = keys.findIndex((k) => k.key.replace(/^sk-/, '').length < MIN_CONFIG_KEY_SECRET);
  if (i < 0) return null;
  return {
    field: `keys.${i}.key`,
    message: `too short: a key needs at least ${MIN_CONFIG_KEY_SECRET} characters after "sk-" (generate one with \`npx gateway keys:create\` or \`openssl rand -hex 16\`)`,
  };
}
