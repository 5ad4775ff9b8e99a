// Whether the servers a repository's own .mcp.json names may run. A project
// file can name any program, so its servers wait until the person trusts the
// project, as its hooks and extensions do (docs/extensions.md, "Trust"):
// until then they are listed, with the reason, and never started.
import { projectTrusted } from "../extensions/trust";
import type { RawServer } from "./config-files";

/** The one place that decides whether `cwd`'s .mcp.json servers among `raws` start: the project is trusted (not asked of the disk when none is the project's). */
export function projectServersAllowed(cwd: string, raws: readonly RawServer[]): boolean {
  return raws.some((raw) => raw.origin === "project") && projectTrusted(cwd);
}

/** What `awl mcp list` and `/mcp` say of a project server that did not start. */
export const NOT_TRUSTED = "not trusted yet (the REPL asks as it starts; awl -p --trust runs it once)";
