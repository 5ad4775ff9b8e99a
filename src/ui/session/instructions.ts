// The project instructions in words for the screen: the banner's and
// /session's list of files, and the notice when something was cut, left out
// or could not be read. Paths are untrusted (a directory may be named
// anything): every line goes through safeText.
import { homedir } from "node:os";
import { dirname, relative, sep } from "node:path";
import { inside, realCwd, type ContextFiles, type Env } from "../../agent/context-files";
import { kib, type PromptContext } from "../../agent/context-prompt";
import { safeText } from "../render/safe-text";

/**
 * One line for the banner and `/session`, made safe to show: the files in the prompt, in order,
 * with their sizes, e.g. `Instructions: ~/.config/awl/AGENTS.md 120 B · ../AGENTS.md 2.3 KiB · CLAUDE.md 30.0 of 40.1 KiB (cut)`.
 * Undefined when there are none.
 */
export function contextFilesLine(files: PromptContext["files"], cwd: string, env: Env = process.env, more = 0): string | undefined {
  if (files.length === 0) return undefined;
  const home = env.HOME || homedir();
  const items = files.map((f) => {
    const path = shortPath(f.path, cwd, home);
    if (f.status === "full") return `${path} ${size(f.included)}`;
    if (f.status === "cut") return `${path} ${sizeOf(f.included, f.bytes)} (cut)`;
    if (f.status === "empty") return `${path} (empty)`;
    return `${path} ${size(f.bytes)} (left out)`;
  });
  return safeText(`Instructions: ${items.join(" · ")}${more > 0 ? ` · ${more} more left out` : ""}`);
}

/**
 * The one line to show when anything was cut, left out or could not be read
 * (stderr under -p); undefined when everything was read whole. E.g.
 * `Project instructions are limited to 32 KiB: CLAUDE.md cut to 30.0 of 40.1 KiB; app/AGENTS.md (500 B) left out. Not read: web/AGENTS.md (permission denied).`
 */
export function contextNotice(context: Pick<ContextFiles, "files" | "skipped" | "limit">, cwd: string, env: Env = process.env): string | undefined {
  const home = env.HOME || homedir();
  const parts: string[] = [];
  const cut = context.files.filter((f) => f.status === "cut").map((f) => `${shortPath(f.path, cwd, home)} cut to ${sizeOf(f.included, f.bytes)}`);
  const out = context.files.filter((f) => f.status === "omitted").map((f) => `${shortPath(f.path, cwd, home)} (${size(f.bytes)})`);
  if (cut.length > 0 || out.length > 0) {
    const lists = [...cut, ...(out.length > 0 ? [`${listed(out)} left out`] : [])];
    parts.push(`Project instructions are limited to ${kib(context.limit)}: ${lists.join("; ")}.`);
  }
  const invalid = context.files.filter((f) => f.invalidUtf8).map((f) => shortPath(f.path, cwd, home));
  if (invalid.length > 0) parts.push(`Not valid UTF-8 (bad bytes replaced): ${listed(invalid)}.`);
  if (context.skipped.length > 0) {
    parts.push(`Not read: ${listed(context.skipped.map((s) => `${shortPath(s.path, cwd, home)} (${s.reason})`))}.`);
  }
  return parts.length > 0 ? safeText(parts.join(" ")) : undefined;
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** `12.3 of 19.5 KiB`, `300 B of 19.5 KiB`. */
function sizeOf(part: number, whole: number): string {
  return part >= 1024 ? `${(part / 1024).toFixed(1)} of ${size(whole)}` : `${size(part)} of ${size(whole)}`;
}

function listed(items: string[]): string {
  return items.length <= 5 ? items.join(", ") : `${items.slice(0, 5).join(", ")} and ${items.length - 5} more`;
}

/** A path for the screen: relative to cwd for the project's files (`AGENTS.md`, `../AGENTS.md`), `~/…` under home, else absolute. */
function shortPath(path: string, cwd: string, home: string): string {
  const dir = dirname(path);
  const real = realCwd(cwd);
  if (inside(real, dir) || inside(cwd, dir)) return relative(inside(real, dir) ? real : cwd, path) || path;
  if (home && home !== sep && inside(path, home)) return `~/${relative(home, path)}`;
  return path;
}
