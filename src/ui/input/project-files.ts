// The files the `@` picker offers: in a git repository, what git tracks and
// the untracked files it does not ignore (`git ls-files`), paths relative to
// the working directory, the tracked first (each by path),
// read as git writes them, so the first screen shows as soon as the first
// names arrive (a 100,000-file repository takes git a while to walk);
// elsewhere a walk with file tracking's cap of files (agent/manifest.ts:
// 100,000) but a quarter of a second at most: it runs as the person types,
// so it gives up rather than stall the prompt.

import { MAX_FILES, walk } from "../../agent/manifest";
import { gitTimeoutMs, spawnGit } from "../../git";

/** Filled in as the names arrive; `changed` is called after each batch and at the end. */
export interface FileList {
  files: string[];
  done: boolean;
  /** Why there is no list (the walk gave up). */
  stopped?: string;
}

/** How long the walk outside a repository may hold the prompt (ms): what types waits meanwhile. */
const WALK_MS = 250;

/** git's listing may take this many times its usual limit: names that arrived by then are kept. */
const LISTING_TIME_FACTOR = 10;

export function listProjectFiles(cwd: string, changed: () => void, env: Record<string, string | undefined> = process.env): FileList {
  const list: FileList = { files: [], done: false };
  // The index answers at once, the untracked files take a walk of the tree: two listings, side by side, the tracked first in the list.
  const tracked: string[] = [];
  const untracked: string[] = [];
  const joined = () => {
    list.files = tracked.concat(untracked).slice(0, MAX_FILES);
    changed();
  };
  void Promise.all([streamNames(["--cached"], tracked, cwd, env, joined), streamNames(["--others", "--exclude-standard"], untracked, cwd, env, joined)])
    .then(([inRepository]) => {
      // Not a repository (or no git): nothing came, and the walk lists the folder instead.
      if (!inRepository && list.files.length === 0) {
        const walked = walk(cwd, new Set(), { files: MAX_FILES, ms: WALK_MS });
        if ("stopped" in walked) list.stopped = walked.stopped;
        else list.files = [...walked.manifest.keys()].sort();
      }
    })
    .catch(() => {})
    .finally(() => {
      list.done = true;
      changed();
    });
  return list;
}

/** `git ls-files -z` with these options, each name pushed onto `into` as it arrives (`batch` after each read); true when git answered as a repository's. */
async function streamNames(options: string[], into: string[], cwd: string, env: Record<string, string | undefined>, batch: () => void): Promise<boolean> {
  const git = spawnGit(["ls-files", "-z", ...options], { cwd, env });
  if (!git) return false;
  // A listing still running never keeps awl from exiting; one that takes too long keeps what came.
  git.unref();
  const limit = setTimeout(() => git.kill("SIGKILL"), gitTimeoutMs(env) * LISTING_TIME_FACTOR);
  limit.unref();
  try {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of git.stdout) {
      const names = (rest + decoder.decode(chunk, { stream: true })).split("\0");
      rest = names.pop()!;
      if (into.length < MAX_FILES) into.push(...names.slice(0, MAX_FILES - into.length));
      batch();
    }
    return (await git.exited) === 0;
  } finally {
    clearTimeout(limit);
  }
}
