// The environment a bash command runs with: awl's own, less its secrets. A
// command the model runs may print its environment (into the session file and
// to the provider) or send it anywhere; a prompt injection in a file it read
// can ask it to. So the provider keys (whose names the caller gives: the tools
// know no provider) are never passed, and, as Codex does by default, neither
// is any variable whose name says it holds a secret. A
// command that needs one fails visibly ("not authenticated"), and the person
// passes it on purpose with AWL_BASH_PASS_ENV=NAME1,NAME2.

export const PASS_ENV_VARIABLE = "AWL_BASH_PASS_ENV";

/** Names holding a secret by convention: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, PGPASSWORD, npm_config__authToken. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD/i;

/** `env` without `keys` (the provider keys' variables, never passed), and without secret-named variables not listed in AWL_BASH_PASS_ENV. */
export function bashEnvironment(env: Record<string, string | undefined>, keys: readonly string[]): Record<string, string> {
  const passed = new Set((env[PASS_ENV_VARIABLE] ?? "").split(",").map((name) => name.trim()));
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || keys.includes(name)) continue;
    if (SECRET_NAME.test(name) && !passed.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}
