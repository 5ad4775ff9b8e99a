// `awl export` and `/export`: a session's active path as Markdown, one HTML
// file, or its raw lines. Markdown and HTML are redacted (./redact.ts) and say
// so at the top; the JSONL is the log as written, and its caller says that it
// is not redacted. A file is never overwritten.
import { closeSync, constants, openSync } from "node:fs";
import { UsageError, UserError } from "../../errors";
import { readActivePath } from "../../session/tree";
import { writeAll } from "../../private-file";
import { fsReason } from "../../session/log";
import { titleOf } from "../../session/store";
import { toHtml } from "./export-html";
import { toMarkdown } from "./export-md";
import { documentOf } from "./export-parts";
import { redactor } from "./redact";

export type ExportFormat = "md" | "html" | "jsonl";

export const JSONL_WARNING = "the JSONL export is the session log as written: NOT redacted (API keys a tool printed, paths and all)";

export function exportText(file: string, format: ExportFormat, env: Record<string, string | undefined> = process.env): string {
  const path = readActivePath(file);
  try {
    if (format === "jsonl") return [path.line(0), ...[...path.entries, ...path.children, ...path.after].sort((a, b) => a.offset - b.offset).map((e) => path.line(e.offset))].map((line) => `${line.toString("utf8")}\n`).join("");
    const doc = documentOf(path, titleOf(file), redactor(env));
    return format === "html" ? toHtml(doc) : toMarkdown(doc);
  } finally {
    path.close();
  }
}

/** Writes a new file (0600: it holds a transcript); an existing one is a usage error, never overwritten. */
export function writeNewFile(target: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${target} exists; an export never overwrites a file: choose another name`);
    throw new UserError(`cannot write ${target}: ${fsReason(error)}`);
  }
  try {
    writeAll(fd, text);
  } catch (error) {
    throw new UserError(`cannot write ${target}: ${fsReason(error)}`);
  } finally {
    closeSync(fd);
  }
}
