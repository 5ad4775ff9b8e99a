// The few questions file checkpoints ask git, every one read-only: where the
// repository is, which files it tracks (and their objects), which of those
// differ from the index, what it ignores, and an object's bytes. Each is one
// of awl's own git commands (src/git.ts: guarded, without the person's keys,
// within a time limit, stopped by the turn's signal), with every filter
// driver the configuration defines emptied, and submodules left alone. awl
// never runs a git command that writes, and never touches `.git`.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { gitTimeoutMs, runGit, type GitAnswer } from "../git";
import { filtersOff, repositoryFilters } from "./git-guard";

type Env = Record<string, string | undefined>;

/** A question git did not answer in time, or one the person interrupted: that command's tracking stops. */
export class GitStopped extends Error {}

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
  static async find(cwd: string, env: Env, signal?: AbortSignal): Promise<GitReader | undefined> {
    const out = answered(await runGit(["rev-parse", "--show-toplevel", "--absolute-git-dir"], { cwd, env, ...(signal ? { signal } : {}) }), env);
    const [root, gitDir] = out?.toString("utf8").split("\n") ?? [];
    return root && gitDir ? new GitReader(root, gitDir, env) : undefined;
  }

  /**
   * Tracked paths and their objects (`git ls-files -s`); submodules are left
   * out (their files are another repository's). Asked again only when the
   * index file changed since the last answer.
   */
  async tracked(signal?: AbortSignal): Promise<Map<string, string>> {
    const index = indexKey(join(this.gitDir, "index"));
    if (this.#tracked && index !== undefined && this.#tracked.index === index) return this.#tracked.map;
    const tracked = new Map<string, string>();
    for (const record of await this.#list(["ls-files", "-s", "-z"], signal)) {
      // `<mode> <object> <stage>\t<path>`
      const tab = record.indexOf("\t");
      const [mode, oid, stage] = record.slice(0, tab).split(" ");
      if (mode !== "160000" && stage === "0" && oid) tracked.set(record.slice(tab + 1), oid);
    }
    this.#tracked = index === undefined ? undefined : { index, map: tracked };
    return tracked;
  }

  /** Tracked paths whose bytes differ from the index (what a clean object cannot stand for). */
  async dirty(signal?: AbortSignal): Promise<Set<string>> {
    // The option, not `diff.ignoreSubmodules`, which binds only porcelain: a submodule's own filters are out of `-c`'s reach.
    return new Set(await this.#list(["diff-files", "--name-only", "-z", "--ignore-submodules=all", "--no-ext-diff"], signal));
  }

  /** What git ignores: a folder wholly ignored ends in `/`. */
  async ignored(signal?: AbortSignal): Promise<Set<string>> {
    return new Set(await this.#list(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], signal));
  }

  /** Which of `paths` git ignores. */
  async whichIgnored(paths: string[], signal?: AbortSignal): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const out = await this.#ask(["check-ignore", "-z", "--stdin"], signal, `${paths.join("\0")}\0`);
    return new Set(out ? split(out) : []);
  }

  /** An object's bytes (`git cat-file blob`); undefined when git cannot give them. */
  async blob(oid: string, signal?: AbortSignal): Promise<Buffer | undefined> {
    return this.#ask(["cat-file", "blob", oid], signal);
  }

  /**
   * Why git's object is not the file's bytes for `path` (a line-ending
   * conversion, a filter, LFS), or undefined when it is.
   */
  async conversion(path: string, signal?: AbortSignal): Promise<string | undefined> {
    const autocrlf = (await this.#ask(["config", "core.autocrlf"], signal))?.toString("utf8").trim();
    if (autocrlf && autocrlf !== "false") return `git converts its line endings (core.autocrlf=${autocrlf})`;
    const out = await this.#ask(["check-attr", "-z", "text", "eol", "crlf", "filter", "--", path], signal);
    const fields = out ? split(out) : [];
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const [attr, value] = [fields[i + 1]!, fields[i + 2]!];
      if (value !== "unspecified" && value !== "unset" && !(attr === "text" && value === "set" && !autocrlf)) return `git converts it (attribute ${attr}=${value})`;
    }
    return undefined;
  }

  async #list(args: string[], signal: AbortSignal | undefined): Promise<string[]> {
    const out = await this.#ask(args, signal);
    if (!out) throw new Error(`git ${args[0]} failed in ${this.root}`);
    return split(out);
  }

  /** One question's stdout; undefined when git fails. */
  async #ask(args: string[], signal: AbortSignal | undefined, stdin?: string): Promise<Buffer | undefined> {
    const config = await this.#config(signal);
    const answer = await runGit(args, { cwd: this.root, env: this.env, config, ...(signal ? { signal } : {}), ...(stdin === undefined ? {} : { stdin }) });
    const out = answered(answer, this.env);
    // check-attr and check-ignore answer "none" with exit 1 and no output.
    return out ?? ("code" in answer && answer.code === 1 && answer.stdout.byteLength === 0 && args[0]!.startsWith("check") ? answer.stdout : undefined);
  }

  /** Every filter driver the configuration defines, emptied: awl's questions run none of them, the person's own included. */
  async #config(signal: AbortSignal | undefined): Promise<string[]> {
    this.#filters ??= repositoryFilters(this.root, this.env, "all", signal).then((f) => {
      if ("ask" in f) throw new GitStopped(f.ask);
      return f.names;
    });
    try {
      return filtersOff(await this.#filters);
    } catch (error) {
      this.#filters = undefined; // asked again by the next command
      throw error;
    }
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

/** The stdout of a command that succeeded; undefined when git failed or is missing; GitStopped when it ran out of time or was interrupted. */
function answered(answer: GitAnswer, env: Env): Buffer | undefined {
  if ("code" in answer) return answer.code === 0 ? answer.stdout : undefined;
  if (answer.failed === "timeout") throw new GitStopped(`git did not answer within ${gitTimeoutMs(env) / 1000} s`);
  if (answer.failed === "aborted") throw new GitStopped("interrupted");
  return undefined;
}
