// The files the `@` picker offers: in a git repository, what git tracks and
// the untracked files it does not ignore (`git ls-files`), paths relative to
// the working directory, sorted; elsewhere a walk with the caps of file tracking
// (agent/manifest.ts: 100,000 files, 1 s), which gives up rather than stall
// the prompt. Read once a prompt, when `@` is first typed.

import { MAX_FILES, MAX_WALK_MS, walk } from "../../agent/manifest";
import { runGitSync } from "../../git";

export type ProjectFiles = { files: string[] } | { stopped: string };

export function projectFiles(cwd: string, env: Record<string, string | undefined> = process.env): ProjectFiles {
  const git = runGitSync(["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd, env });
  if ("code" in git && git.code === 0) {
    const files = [...new Set(git.stdout.toString("utf8").split("\0").filter(Boolean))].sort();
    return { files: files.slice(0, MAX_FILES) };
  }
  const walked = walk(cwd, new Set(), { files: MAX_FILES, ms: MAX_WALK_MS });
  return "stopped" in walked ? walked : { files: [...walked.manifest.keys()].sort() };
}
