// Whether a project's own code may run (docs/extensions.md, "Trust"): its
// hooks (`.awl/settings.json`, `.awl/settings.local.json`), its extensions
// (`.awl/extensions/`) and its MCP servers (`.mcp.json`) run programs whoever
// wrote the repository chose, so they wait until the person trusts the
// project. The answer is kept per project folder with a hash of every file
// under `.awl/`, of `.claude/commands/`'s Markdown commands and of
// `.mcp.json`: any change to them asks again. Files that only add words
// (AGENTS.md, Markdown commands) need no trust, but a command's `!`cmd``
// parts run a program and its `allowed-tools` let tools run unasked: those
// wait for trust.
//
// The record is `trusted-projects.json` in awl's configuration folder,
// private (0600), replaced whole: {"<folder's real path>": {"hash", "at"}}.

import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { configDir } from "../config-dir";
import { mkdirPrivate, writeFileAtomic } from "../private-file";
import { markdownFiles } from "./commands/markdown-commands";
import { isObject } from "../json";

type Env = Record<string, string | undefined>;

/** Whose code may run this time: the person's (unless --no-extensions) and the project's (once trusted, or --trust). */
export interface CodeScope {
  person: boolean;
  project: boolean;
}

/** What this process decided for a project folder (--trust, --no-extensions, the person's answer): it beats the record. */
const decided = new Map<string, boolean>();

/**
 * Whether the project's own code (hooks, extensions, `.mcp.json` servers, its
 * Markdown commands' `!`cmd`` parts and `allowed-tools`) may run in this process: decided so at start (the person said yes, or --trust;
 * never with --no-extensions), or trusted before with every file it covers
 * unchanged since.
 */
export function projectTrusted(cwd: string, env: Env = process.env): boolean {
  const key = projectKey(cwd);
  return decided.get(key) ?? trustState(cwd, env) === "trusted";
}

/** Settles the project's trust for the rest of this process (it is not kept: `recordTrust` keeps it). */
export function decideForThisRun(cwd: string, trusted: boolean): void {
  decided.set(projectKey(cwd), trusted);
}

/** "trusted": as recorded; "changed": trusted once, but a file it covers changed since; "new": never trusted. */
export function trustState(cwd: string, env: Env = process.env): "trusted" | "changed" | "new" {
  const record = readRecords(env)[projectKey(cwd)];
  if (!record) return "new";
  return record.hash === projectHash(cwd) ? "trusted" : "changed";
}

/** Keeps the person's yes for this project as its files are now, and lets its code run in this process. */
export function recordTrust(cwd: string, env: Env = process.env): void {
  const records = readRecords(env);
  records[projectKey(cwd)] = { hash: projectHash(cwd), at: new Date().toISOString() };
  const dir = configDir(env);
  mkdirPrivate(dir);
  writeFileAtomic(storeFile(env), `${JSON.stringify(records, null, 2)}\n`);
  decideForThisRun(cwd, true);
}

/** The files trust covers: every file under `.awl/` (links followed), the Markdown commands of `.claude/commands/`, and `.mcp.json`; in a stable order. */
export function coveredFiles(cwd: string): string[] {
  const awl = join(cwd, ".awl");
  let under: string[] = [];
  try {
    under = readdirSync(awl, { recursive: true, encoding: "utf8" }).map((name) => join(awl, name));
  } catch (error) {
    // No .awl folder covers nothing. Any other failure (a link loop inside it) must never read as "nothing":
    // the folder's code would then run, changed or not, on an old yes. Named as a file that cannot be read, it never matches (projectHash).
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return [join(awl, `(unreadable: ${(error as NodeJS.ErrnoException).code ?? "error"})`)];
  }
  const files = [...under.filter(isFile).sort(), ...markdownFiles(join(cwd, ".claude", "commands"))];
  const mcp = join(cwd, ".mcp.json");
  // An empty one names nothing: the sandbox's stand-in, which an awl killed mid-command leaves, changes no trust.
  return isFile(mcp) && statSync(mcp).size > 0 ? [...files, mcp] : files;
}

/** A hash of every covered file's path (relative) and bytes. */
export function projectHash(cwd: string): string {
  const hash = createHash("sha256");
  for (const file of coveredFiles(cwd)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      // What cannot be read cannot be vouched for: a yes given now matches no later start, so awl asks again each time.
      bytes = Buffer.from(`(unreadable ${randomUUID()})`);
    }
    hash.update(`${relative(cwd, file)}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return `sha256:${hash.digest("hex")}`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // a broken link
  }
}

/** The project is its folder, by its real path (a link to it is the same project). */
function projectKey(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

function storeFile(env: Env): string {
  return join(configDir(env), "trusted-projects.json");
}

type Records = Record<string, { hash: string; at: string }>;

/** The kept answers; none when the file is missing or not what awl writes (then nothing is trusted, and the next yes replaces it). */
function readRecords(env: Env): Records {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(storeFile(env), "utf8"));
  } catch {
    return {};
  }
  if (!isObject(parsed)) return {};
  const records: Records = {};
  for (const [path, value] of Object.entries(parsed)) {
    const { hash, at } = (value ?? {}) as { hash?: unknown; at?: unknown };
    if (typeof hash === "string") records[path] = { hash, at: typeof at === "string" ? at : "" };
  }
  return records;
}
