// Writes a whole file for the model, creating the folders it needs.

import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type } from "../ark";
import { replaceFile } from "./atomic-write";
import { toolInput } from "./input";
import { reason } from "./os-error";
import { openRegular, readAll, specialKind } from "./regular-file";
import { failure, fileChange, interrupted, MAX_KEPT_BYTES, type ProposedChange, type Tool, type ToolContext, type ToolOutput } from "./tool";

const Input = type({ "+": "reject", path: "string > 0", content: "string" });
type WriteInput = typeof Input.infer;

const input = toolInput("write", Input, {
  path: "File to write, relative to the working directory or absolute.",
  content: "The complete new content of the file.",
});

export const write: Tool<WriteInput> = {
  name: "write",
  description: [
    "Write a file with the given content, replacing it entirely if it exists; missing parent directories are created.",
    "Paths are relative to the working directory. To change part of an existing file, prefer edit.",
  ].join("\n"),
  ...input,
  summary: (i) => i.path,
  summaryField: "path",
  effect: (i, cwd) => ({ kind: "write", path: resolve(cwd, i.path) }),
  shown: (i) => ({ summary: i.path, body: i.content, language: "" }),
  propose: (i, cwd) => propose(resolve(cwd, i.path), i.content),
  execute: (i, context) => writeTo(i.path, resolve(context.cwd, i.path), i.content, context),
};

async function writeTo(shown: string, path: string, content: string, context: ToolContext): Promise<ToolOutput> {
  const { signal } = context;
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) return failure(`${shown} is a directory; give a file path`);
  const kind = existing && specialKind(existing);
  if (kind) return failure(`${shown} is ${kind}, not a regular file; write does not replace it`);
  await mkdir(dirname(path), { recursive: true });
  const bytes = Buffer.from(content);
  // Kept as the checkpoint's before (all of it), and shown as a diff (when there are not too many).
  const old = existing && (context.beforeChange || existing.size <= MAX_KEPT_BYTES) ? await oldContent(path, signal) : undefined;
  if (existing && context.beforeChange && !old) return failure(`could not read ${shown} to keep what it holds now; it is unchanged`);
  let before;
  try {
    await context.beforeChange?.({ path, before: old ?? null, after: bytes, mode: existing ? existing.mode & 0o7777 : null });
    before = await replaceFile(path, bytes, signal);
  } catch (error) {
    const unchanged = existing ? `${shown} is unchanged` : `${shown} was not created`;
    if (signal.aborted) return interrupted(`interrupted before the write finished; ${unchanged}`);
    return failure(`could not write ${shown}: ${reason(error)}; ${unchanged}`);
  }
  const size = `${bytes.length} byte${bytes.length === 1 ? "" : "s"}`;
  return {
    content: `${before ? "overwrote" : "created"} ${shown} (${size})`,
    isError: false,
    change: fileChange({ created: !before, ...(before && old && old.length <= MAX_KEPT_BYTES ? { before: old } : {}), after: bytes }, context.secrets),
  };
}

/** The file as a write of `content` would leave it; the old bytes shown when there are not too many. */
async function propose(path: string, content: string): Promise<ProposedChange | undefined> {
  const existing = await stat(path).catch(() => undefined);
  if (existing && !existing.isFile()) return undefined;
  const old = existing && existing.size <= MAX_KEPT_BYTES ? await oldContent(path, new AbortController().signal) : undefined;
  return { change: { created: !existing, ...(old ? { before: old } : {}), after: Buffer.from(content) }, whole: true };
}

/** The file's bytes before it is replaced; undefined if they cannot be read (write goes on regardless). */
async function oldContent(path: string, signal: AbortSignal): Promise<Buffer | undefined> {
  try {
    const handle = await openRegular(path);
    try {
      return await readAll(handle, signal);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
