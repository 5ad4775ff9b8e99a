// The bubblewrap command line one bash call runs under (see docs/sandbox.md).
// The whole file system is bound read-only; /dev and /proc are the sandbox's
// own (no terminal of the person's, no process of theirs, awl's included);
// it holds no capability, even when awl runs as root (no remounting);
// the command starts a session of its own (no TIOCSTI into the person's
// terminal) and dies with awl. What may be written depends on the level:
//
// - no-write: nothing on the disk; /tmp and /run are empty scratch folders
//   (no ssh-agent, D-Bus or Docker socket to talk to); no network.
// - write: the project root and the folders the person listed, a private
//   /tmp for the session, the network unless taken away. Inside the root the
//   places that decide what runs later are read-only: .git/hooks,
//   .git/config (all of .git when it is a file or missing), the config and
//   hooks of each submodule's repository under .git/modules, .awl, .claude,
//   .mcp.json. One that does not exist yet is covered by an empty read-only
//   stand-in, so a command cannot create it either; bwrap leaves the stand-in
//   on the disk as an empty folder or file, removed again when no sandbox
//   uses it (tidyStandIns).

import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SandboxRun {
  bwrap: string;
  level: "no-write" | "write";
  /** write level: whether the network stays (no-write never has it). */
  network: boolean;
  /** The session's project root: the repository's top folder, or the working directory. */
  root: string;
  /** write level: more folders the person made writable in their settings. */
  writable: readonly string[];
}

/** Inside the root: read-only even where the root is writable. */
export const PROTECTED = [".git/hooks", ".git/config", ".awl", ".claude", ".mcp.json"] as const;

/** The bwrap argv that runs `inner` in `cwd` at the run's level. */
export function bwrapArgv(run: SandboxRun, cwd: string, inner: readonly string[]): string[] {
  // A writable / (the person said yes to a project at /) is the base, under the sandbox's own /dev, /proc and /tmp: binding it later would cover them.
  const whole = run.level === "write" && (run.root === "/" || run.writable.includes("/"));
  const args = [run.bwrap, whole ? "--bind" : "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  // The root and the listed folders are bound after /tmp, in case they live there.
  if (run.level === "no-write") {
    args.push("--tmpfs", "/tmp", "--tmpfs", "/run", "--unshare-net");
    if (run.root !== "/") args.push("--ro-bind", run.root, run.root);
  } else {
    args.push("--bind", sessionTmp(), "/tmp");
    for (const path of [run.root, ...run.writable]) if (path !== "/" && existsSync(path)) args.push("--bind", path, path);
    for (const [path, standIn] of protectedPaths(run.root)) args.push("--ro-bind", standIn ?? path, path);
    if (!run.network) args.push("--unshare-net");
  }
  // Run as root, bwrap keeps every capability unless told: a command could remount / read-write.
  args.push("--unshare-pid", "--new-session", "--die-with-parent", "--cap-drop", "ALL", "--chdir", cwd, "--", ...inner);
  return args;
}

let scratch: string | undefined;
/** Made on first use, 0700, removed when awl exits: the /tmp approved commands share for the session, and the stand-ins' sources. */
function scratchDir(): string {
  if (scratch) return scratch;
  scratch = mkdtempSync(join(tmpdir(), "awl-sandbox-"));
  mkdirSync(join(scratch, "tmp"), { mode: 0o700 });
  mkdirSync(join(scratch, "empty"), { mode: 0o500 });
  writeFileSync(join(scratch, "empty-file"), "", { mode: 0o400 });
  const made = scratch;
  process.on("exit", () => {
    tidyStandIns();
    rmSync(made, { recursive: true, force: true });
  });
  return scratch;
}

function sessionTmp(): string {
  return join(scratchDir(), "tmp");
}

/** Stand-ins bwrap created on the disk as mount points, to remove once no sandbox uses them. */
const standIns = new Set<string>();

/** Each protected path under the root, with the stand-in bound over it when it does not exist. */
function protectedPaths(root: string): [string, string | undefined][] {
  const git = join(root, ".git");
  const gitIsFolder = lstatSync(git, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const paths = gitIsFolder ? [...PROTECTED.map((p) => join(root, p)), ...submoduleGitDirs(join(git, "modules")).flatMap((dir) => [join(dir, "config"), join(dir, "hooks")])] : [git, ...PROTECTED.filter((p) => !p.startsWith(".git/")).map((p) => join(root, p))];
  return paths.map((path) => {
    if (lstatSync(path, { throwIfNoEntry: false })) return [path, undefined];
    standIns.add(path);
    return [path, join(scratchDir(), path.endsWith(".mcp.json") || path.endsWith("config") ? "empty-file" : "empty")];
  });
}

/**
 * The repositories git keeps for submodules: each folder under .git/modules
 * that holds a `config` (a submodule's own submodules nest under its
 * `modules`). Their config and hooks run code when git works in the submodule,
 * as the project's own do. Real folders only: a link is not followed out.
 */
function submoduleGitDirs(modules: string, depth = 0): string[] {
  if (depth > 8) return [];
  let names: string[];
  try {
    names = readdirSync(modules);
  } catch {
    return []; // none: the usual case
  }
  return names.flatMap((name) => {
    const dir = join(modules, name);
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
    // A submodule named with a slash (libs/a) is kept as nested folders: a folder without its own config is looked into.
    return existsSync(join(dir, "config")) ? [dir, ...submoduleGitDirs(join(dir, "modules"), depth + 1)] : submoduleGitDirs(dir, depth + 1);
  });
}

let running = 0;

/** A sandbox started: its stand-ins stay until the last one running ends. */
export function sandboxStarted(): void {
  running++;
}

/** A sandbox ended (its bwrap exited); the last one out removes the stand-ins. */
export function sandboxEnded(): void {
  if (--running === 0) tidyStandIns();
}

/** Removes the empty stand-ins bwrap left. Anything written there since is left alone. */
function tidyStandIns(): void {
  for (const path of standIns) {
    try {
      const found = statSync(path);
      if (found.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
      else if (found.isFile() && found.size === 0) unlinkSync(path);
    } catch {
      // Gone already, or not ours to remove.
    }
    standIns.delete(path);
  }
}
