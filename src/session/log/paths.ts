// Where session files live (docs/session-format.md, "Where the files live").
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { dataHome } from "../../config-dir";
import { UsageError } from "../../errors";

type Env = Record<string, string | undefined>;

/**
 * `AWL_SESSION_DIR` replaces the whole root; else `$XDG_DATA_HOME/awl/sessions`,
 * else `~/.local/share/awl/sessions`. A relative `AWL_SESSION_DIR` is refused
 * rather than resolved: it would put a separate root inside every project it
 * is used in (transcripts hold code and secrets, and a folder in the project
 * gets committed), so `--resume` from a subfolder would find nothing; and the
 * usual cause is a `~` the shell did not expand ("~/sessions" in quotes). A
 * relative `XDG_DATA_HOME` is ignored, as the XDG Base Directory spec says.
 * A root that exists but is not a folder is refused too: listing it would
 * otherwise say "no sessions" and every prompt would fail on ENOTDIR.
 */
export function sessionRoot(env: Env = process.env): string {
  const configured = env.AWL_SESSION_DIR;
  if (configured && !isAbsolute(configured)) {
    const hint = configured.startsWith("~") ? ` (awl does not expand ~: write $HOME${configured.slice(1)})` : "";
    throw new UsageError(`AWL_SESSION_DIR must be an absolute path, not '${configured}'${hint}`);
  }
  const xdg = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  const root = configured || join(dataHome(env), "sessions");
  if (!isUsableFolder(root)) {
    const source = configured ? "AWL_SESSION_DIR" : xdg ? "XDG_DATA_HOME" : "HOME";
    throw new UsageError(`the session folder ${root} (from ${source}) is not a directory`);
  }
  return root;
}

/** A folder, or nothing yet (created on the first message); false when a file stands in its way. */
function isUsableFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOTDIR";
  }
}

/** Longest folder name most file systems take (ext4, APFS, NTFS: 255 bytes). */
const MAX_NAME_BYTES = 255;
/** What a long name keeps of itself before its hash: enough to recognise the directory by eye. */
const KEPT_NAME_BYTES = 200;

/**
 * The spec's example is binding: "/Users/travis/Code/awl" -> "--Users-travis-Code-awl--".
 * Not injective ("/a-b" and "/a/b" collide), so lookups also check the header's cwd.
 * A name over 255 bytes (a deep directory) could not be created: it is cut to
 * its first 200 bytes (never inside a character) and ends in `-` and the first
 * 12 hex digits of the SHA-256 of the whole cwd, so two deep directories that
 * share their first 200 bytes still get their own folders.
 */
export function encodeCwd(cwd: string): string {
  const trimmed = cwd.replace(/^\/+/, "").replace(/\/+$/, "");
  const name = `--${trimmed.replaceAll("/", "-")}--`;
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const hash = createHash("sha256").update(cwd).digest("hex").slice(0, 12);
  return `${cutToBytes(name, KEPT_NAME_BYTES)}-${hash}`;
}

/** The longest start of `text` that fits in `bytes` bytes of UTF-8 without splitting a character. */
function cutToBytes(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += Buffer.byteLength(char);
    if (used > bytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

export function sessionDir(cwd: string, env?: Env): string {
  return join(sessionRoot(env), encodeCwd(cwd));
}

/** `2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl` */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** The session id a file name carries, or undefined for anything that is not a session file. */
export function idFromFileName(name: string): string | undefined {
  // What follows the last "_", up to ".jsonl", within the last path segment. Not a regular expression: the picker
  // takes the ids of every name before its first screen, and over 10,000 names one cost 3-5 ms more (measured).
  if (!name.endsWith(".jsonl")) return undefined;
  const id = name.slice(name.lastIndexOf("_") + 1, -".jsonl".length);
  return id && name.includes("_") && !id.includes("/") ? id : undefined;
}
