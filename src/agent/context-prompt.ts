// The project instructions' section of the system prompt: written when a
// session starts (renderSection), and read back from a saved prompt
// (contextFilesInPrompt), so that a resumed session's /session lists what it
// started with. The list of files comes before any file's text, so no file's
// text can add to it; a path with a control character (a newline in a
// directory name) is written JSON-quoted, so no path can forge a heading.
import type { ContextFile } from "./context-files";

export const CONTEXT_HEADING = "# Project instructions";
const FILES_LINE = "Files:";
/** How many files that are not in the prompt (left out, empty) the prompt lists by name; the rest are counted. */
const LISTED_NOT_INCLUDED = 20;

/** A path as written in the prompt: JSON-quoted when it holds a control character (or starts with a quote). */
export function promptPath(path: string): string {
  return /[\x00-\x1f\x7f]/.test(path) || path.startsWith('"') ? JSON.stringify(path) : path;
}

/** The section: its heading, what it is, the list of files, a note when incomplete, then each file under its path. */
export function renderSection(files: ContextFile[], chunks: string[], limit: number): string {
  if (files.length === 0) return "";
  const listedFiles = files.filter((f) => f.status === "full" || f.status === "cut");
  const others = files.filter((f) => f.status === "omitted" || f.status === "empty");
  const shown = new Set([...listedFiles, ...others.slice(0, LISTED_NOT_INCLUDED)]);
  const lines = files.filter((f) => shown.has(f)).map((f) => {
    const parts = [`${f.bytes} bytes`];
    if (f.global) parts.push("global");
    if (f.status === "cut") parts.push(`cut to ${f.included} bytes`);
    if (f.status === "omitted") parts.push("not included");
    if (f.status === "empty") parts.push("empty");
    if (f.invalidUtf8) parts.push("not valid UTF-8");
    return `- ${promptPath(f.path)} (${parts.join("; ")})`;
  });
  if (others.length > LISTED_NOT_INCLUDED) lines.push(`- (and ${others.length - LISTED_NOT_INCLUDED} more)`);
  const incomplete = files.some((f) => f.status === "cut" || f.status === "omitted");
  return [
    CONTEXT_HEADING,
    "",
    "The user's standing instructions, from AGENTS.md (or CLAUDE.md) files read when this session started: " +
      "the user's global file first, then the project's, from the repository root down to the working directory. " +
      "Follow them. Where two disagree, the later one (nearer the working directory) wins; " +
      "what the user asks in this conversation wins over all of them.",
    "",
    FILES_LINE,
    ...lines,
    "",
    ...(incomplete
      ? [
          `Project instructions are limited to ${kib(limit)}: the files marked "cut to" or "not included" are incomplete here. ` +
            "Read them when they may matter to the task.",
          "",
        ]
      : []),
    chunks.join("\n\n"),
  ]
    .join("\n")
    .replace(/\n+$/, "");
}

export function kib(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

export interface PromptContext {
  files: Pick<ContextFile, "path" | "global" | "bytes" | "included" | "status">[];
  /** Files past the listed ones, counted but not named (deep trees). */
  more: number;
}

/**
 * The files a system prompt holds, read from the list awl writes before any
 * file's text (so no file's text can add to it); undefined when the prompt has
 * no project instructions (an older session, or none were found).
 */
export function contextFilesInPrompt(prompt: string | undefined): PromptContext | undefined {
  if (!prompt) return undefined;
  const start = prompt.indexOf(`\n${CONTEXT_HEADING}\n`);
  if (start < 0) return undefined;
  const list = prompt.indexOf(`\n${FILES_LINE}\n`, start);
  if (list < 0) return undefined;
  const result: PromptContext = { files: [], more: 0 };
  for (const line of prompt.slice(list + FILES_LINE.length + 2).split("\n")) {
    const more = /^- \(and (\d+) more\)$/.exec(line);
    if (more) {
      result.more = Number(more[1]);
      continue;
    }
    const open = line.lastIndexOf(" (");
    if (!line.startsWith("- ") || open < 0 || !line.endsWith(")")) break;
    const shown = line.slice(2, open);
    const [size, ...parts] = line.slice(open + 2, -1).split("; ");
    const bytes = /^(\d+) bytes$/.exec(size ?? "");
    if (!bytes) break;
    let path = shown;
    if (shown.startsWith('"')) {
      try {
        path = JSON.parse(shown);
      } catch {
        break;
      }
    }
    const cutTo = parts.map((p) => /^cut to (\d+) bytes$/.exec(p)).find(Boolean);
    const status = parts.includes("empty") ? "empty" : parts.includes("not included") ? "omitted" : cutTo ? "cut" : "full";
    const total = Number(bytes[1]);
    const included = status === "full" ? total : cutTo ? Number(cutTo[1]) : 0;
    result.files.push({ path, global: parts.includes("global"), bytes: total, included, status });
  }
  return result;
}
