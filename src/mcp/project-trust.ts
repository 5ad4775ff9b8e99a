// Whether the servers a repository's own .mcp.json names may run. A project
// file can name any program, so its servers wait until the person trusts the
// project (docs/mcp.md, "Project servers"). Until awl asks that question,
// the answer is no: they are listed, with the reason, and never started.

/** The one place that decides whether `cwd`'s .mcp.json servers start. */
export function projectServersAllowed(_cwd: string): boolean {
  return false;
}

/** What `awl mcp list` and `/mcp` say of a project server that did not start. */
export const NOT_TRUSTED = "not trusted yet";
