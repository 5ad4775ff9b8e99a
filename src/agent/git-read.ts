// The few questions file checkpoints ask git, every one read-only: where the
// repository is, which files it tracks (and their objects), which of those
// differ from the index, what it ignores, and an object's bytes. Each runs
// with --no-optional-locks (so not even the index's stat cache is refreshed),
// with the programs a repository's configuration could make git run switched
// off (as for read-only commands, git-guard.ts), and without the person's
// keys. awl never runs a git command that writes, and never touches `.git`.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { keyVariables } from "../providers/registry";
import { bashEnvironment } from "../tools/bash-env";
import { GIT_CONFIG, repositoryFilters } from "./git-guard";

type Env = Record<string, string | undefined>;

export class GitReader {
  #filters: Promise<string[]> | undefined;
  /** The last answer of tracked(), and the index file as it was then (looked at, never opened for writing). */
  #tracked: { index: string; map: Map<string, string> } | undefined;

  constructor(
    readonly root: string,
    private readonly gitDir: string,
    private readonly env: Env,
  ) {}

  /** The repository's top folder for `cwd`, or undefined outside any repository (or without git). */
  static async find(cwd: string, env: Env): Promise<GitReader | undefined> {
    const out = await runGit(["rev-parse", "--show-toplevel", "--absolute-git-dir"], cwd, env, []);
    const [root, gitDir] = out?.toString("utf8").split("\n") ?? [];
    return root && gitDir ? new GitReader(root, gitDir, env) : undefined;
  }

  /**
   * Tracked paths and their objects (`git ls-files -s`); submodules are left
   * out (their files are another repository's). Asked again only when the
   * index file changed since the last answer.
   */
  async tracked(): Promise<Map<string, string>> {
    const index = indexKey(join(this.gitDir, "index"));
    if (this.#tracked && index !== undefined && this.#tracked.index === index) return this.#tracked.map;
    const tracked = new Map<string, string>();
    for (const record of await this.#list(["ls-files", "-s", "-z"])) {
      // `<mode> <object> <stage>\t<path>`
      const tab = record.indexOf("\t");
      const [mode, oid, stage] = record.slice(0, tab).split(" ");
      if (mode !== "160000" && stage === "0" && oid) tracked.set(record.slice(tab + 1), oid);
    }
    this.#tracked = index === undefined ? undefined : { index, map: tracked };
    return tracked;
  }

  /** Tracked paths whose bytes differ from the index (what a clean object cannot stand for). */
  async dirty(): Promise<Set<string>> {
    return new Set(await this.#list(["diff-files", "--name-only", "-z"]));
  }

  /**
   * The folders git ignores as folders (`build/`, each ending in `/`): what
   * is in them is never tracked. An ignored file elsewhere (`.env`) is not
   * among them. `--directory` also names a folder that merely holds nothing
   * but ignored files, so each is asked about again, as a folder.
   */
  async ignoredFolders(): Promise<Set<string>> {
    const listed = await this.#list(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"]);
    return this.#whichIgnored(listed.filter((path) => path.endsWith("/")));
  }

  /** The folders (`a/`, `a/b/`) holding any of `paths` that git ignores as folders. */
  async ignoredFoldersOf(paths: readonly string[]): Promise<Set<string>> {
    const folders = new Set<string>();
    for (const path of paths) for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) folders.add(path.slice(0, i + 1));
    return this.#whichIgnored([...folders]);
  }

  /** Which of `paths` git ignores. */
  async #whichIgnored(paths: string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const out = await runGit(["check-ignore", "-z", "--stdin"], this.root, this.env, await this.#config(), `${paths.join("\0")}\0`);
    return new Set(out ? split(out) : []);
  }

  /** An object's bytes (`git cat-file blob`); undefined when git cannot give them. */
  async blob(oid: string): Promise<Buffer | undefined> {
    return runGit(["cat-file", "blob", oid], this.root, this.env, await this.#config());
  }

  /**
   * Why git's object is not the file's bytes for `path` (a line-ending
   * conversion, a filter, LFS), or undefined when it is.
   */
  async conversion(path: string): Promise<string | undefined> {
    const config = await this.#config();
    const autocrlf = (await runGit(["config", "core.autocrlf"], this.root, this.env, config))?.toString("utf8").trim();
    if (autocrlf && autocrlf !== "false") return `git converts its line endings (core.autocrlf=${autocrlf})`;
    const out = await runGit(["check-attr", "-z", "text", "eol", "crlf", "filter", "--", path], this.root, this.env, config);
    const fields = out ? split(out) : [];
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const [attr, value] = [fields[i + 1]!, fields[i + 2]!];
      if (value !== "unspecified" && value !== "unset" && !(attr === "text" && value === "set" && !autocrlf)) return `git converts it (attribute ${attr}=${value})`;
    }
    return undefined;
  }

  async #list(args: string[]): Promise<string[]> {
    const out = await runGit(args, this.root, this.env, await this.#config());
    if (!out) throw new Error(`git ${args[0]} failed in ${this.root}`);
    return split(out);
  }

  /** The command-line configuration every question runs with: git's programs off, the repository's own filters emptied. */
  async #config(): Promise<string[]> {
    this.#filters ??= repositoryFilters(this.root, this.env).then((f) => ("names" in f ? f.names : []));
    const filters = (await this.#filters).flatMap((name) => ["clean=", "smudge=", "process=", "required=false"].map((key) => `filter.${name}.${key}`));
    return [...GIT_CONFIG, ...filters];
  }
}

/** What git names a blob of these bytes, in a repository whose object names have `length` hex digits (40: SHA-1, 64: SHA-256). */
export function gitBlobHash(bytes: Uint8Array, length: number): string {
  return createHash(length === 64 ? "sha256" : "sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** What tells that the index file changed: its size, times and inode (git replaces it by rename when it writes it). */
function indexKey(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`;
  } catch {
    return undefined;
  }
}

function split(out: Buffer): string[] {
  return out.toString("utf8").split("\0").filter((s) => s !== "");
}

/** Runs one read-only git question; its stdout, or undefined when git is missing or fails. */
async function runGit(args: string[], cwd: string, env: Env, config: string[], stdin?: string): Promise<Buffer | undefined> {
  let proc;
  try {
    proc = Bun.spawn(["git", "--no-pager", "--no-optional-locks", ...config.flatMap((c) => ["-c", c]), ...args], {
      cwd,
      env: { ...bashEnvironment(env, keyVariables()), GIT_OPTIONAL_LOCKS: "0", GIT_NO_LAZY_FETCH: "1", GIT_ALLOW_PROTOCOL: "none", GIT_TERMINAL_PROMPT: "0" },
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stdout: "pipe",
      stderr: "ignore",
    });
  } catch {
    return undefined;
  }
  const [out, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), proc.exited]);
  // check-attr and check-ignore answer "none" with exit 1 and no output.
  return code === 0 || (code === 1 && out.byteLength === 0 && args[0]!.startsWith("check")) ? Buffer.from(out) : undefined;
}
