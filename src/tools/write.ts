// Writes a whole file for the model, creating the folders it needs.

import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type } from "../ark";
import { toolInput } from "./input";
import { byteLength } from "./output-cap";
import type { Tool, ToolOutput } from "./tool";

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
  execute: (i, context) => writeTo(i.path, resolve(context.cwd, i.path), i.content),
};

async function writeTo(shown: string, path: string, content: string): Promise<ToolOutput> {
  const before = await stat(path).catch(() => undefined);
  if (before?.isDirectory()) return { content: `${shown} is a directory; give a file path`, isError: true };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  const bytes = byteLength(content);
  return { content: `${before ? "overwrote" : "created"} ${shown} (${bytes} byte${bytes === 1 ? "" : "s"})`, isError: false };
}
