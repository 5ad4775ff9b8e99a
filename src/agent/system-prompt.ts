import os from "node:os";
import type { ToolDefinition } from "../providers/provider";

/** What the model is told at the start of a session: its tools, where it is, when. */
export function systemPrompt(options: { cwd: string; tools: ToolDefinition[]; now?: Date }): string {
  const now = options.now ?? new Date();
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
    `Working directory: ${options.cwd}`,
    `Date: ${now.toISOString().slice(0, 10)}`,
    `OS: ${os.type()} ${os.release()} (${process.platform}/${process.arch})`,
  ].join("\n");
}
