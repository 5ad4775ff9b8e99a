// Sessions of this directory's project kept under another directory's folder:
// started before the checkout was moved or renamed, or in another clone of the
// same repository at the same place inside it. Their headers' `project` names
// the same root commit and path as this directory's. The files stay where
// they are; listing shows them as from another path, and --resume takes them.
import { catalog } from "./catalog";
import { sessionRoot, projectOf, sameProject } from "../log";

type Env = Record<string, string | undefined>;

/** Paths of the session files whose project is this directory's, from other directories (none outside a git repository). */
export function movedSessions(cwd: string, env: Env = process.env): string[] {
  const here = projectOf(cwd, env);
  if (!here) return [];
  return catalog(sessionRoot(env), cwd, true)
    .filter((e) => e.cwd !== undefined && e.cwd !== cwd && sameProject(e.project, here))
    .map((e) => e.path);
}
