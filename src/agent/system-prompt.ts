import os from "node:os";
import type { ToolDefinition } from "../providers/provider";
import { loadContextFiles, type ContextFiles } from "./context-files";
import { promptPath } from "./context-prompt";

/**
 * What the model is told at the start of a session: its tools, where it is,
 * when, and the person's standing instructions (AGENTS.md / CLAUDE.md, see
 * context-files.ts). `context` is what the caller read (and showed) when the
 * session started; without it the files are read now, with `env` (default
 * process.env) for the global file's location.
 */
export function systemPrompt(options: {
  cwd: string;
  tools: ToolDefinition[];
  now?: Date;
  context?: ContextFiles;
  env?: Record<string, string | undefined>;
}): string {
  const now = options.now ?? new Date();
  const context = options.context ?? loadContextFiles({ cwd: options.cwd, env: options.env });
  const toolLines = options.tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`);
  return [
    "You are awl, a coding agent working in the user's terminal.",
    "You help with software tasks by reading and changing files and running commands in the project.",
    "",
    "Tools:",
    ...toolLines,
    "",
    "Guidelines:",
    "- Read files before editing them; prefer small, exact edits over rewriting whole files.",
    "- Paths are relative to the working directory unless absolute.",
    "- Keep answers short and concrete; say what you changed and why.",
    "",
    // Quoted when it holds a control character, so a directory's name cannot forge a line of the prompt.
    `Working directory: ${promptPath(options.cwd)}`,
    `Date: ${now.toISOString().slice(0, 10)}`,
    `OS: ${os.type()} ${os.release()} (${process.platform}/${process.arch})`,
    ...(context.section ? ["", context.section] : []),
  ].join("\n");
}
