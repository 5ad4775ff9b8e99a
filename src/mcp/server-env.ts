// The environment a stdio server starts with: a minimal base, then what its
// configuration gives. Never awl's whole environment: a server is a program
// someone else wrote, and the provider keys (or any other secret the person
// has exported) are none of its business; a server that needs a token gets it
// from its own `env`.

/** Passed through when set: where programs are, who and where the person is, the language, the temporary folder. */
const BASE = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TMP", "TEMP"];

export function serverEnvironment(own: Record<string, string> | undefined, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && (BASE.includes(name) || name.startsWith("LC_"))) base[name] = value;
  }
  return { ...base, ...own };
}
