// The one table between awl's tools and Claude Code's, used both ways: a hook
// (or an agent definition) written for Claude Code names `Bash`, `Read`,
// `Write`, `Edit` and their fields (`file_path`, `old_string`…); awl's tools
// are `bash`, `read`, `write`, `edit` with their own. A tool not in the table
// (an extension's, an MCP server's) goes by its own name and fields.

import { isAbsolute, resolve } from "node:path";
import type { ToolOutput } from "../../tools";

type Input = Record<string, unknown>;

interface Field {
  awl: string;
  claude: string;
  /** Claude Code's value from awl's (and back): Bash's timeout is in milliseconds, awl's in seconds; Read's path is absolute. */
  toClaude?(value: unknown, cwd: string): unknown;
  fromClaude?(value: unknown): unknown;
}

interface Row {
  awl: string;
  claude: string;
  fields: Field[];
  /** The `tool_response` a PostToolUse hook reads, in Claude Code's shape for this tool. */
  response(output: ToolOutput, claudeInput: Input): Input;
}

const absolute = (value: unknown, cwd: string) => (typeof value === "string" && !isAbsolute(value) ? resolve(cwd, value) : value);
const path: Field = { awl: "path", claude: "file_path", toClaude: absolute };
const fileResponse = (output: ToolOutput, input: Input): Input => ({ filePath: input.file_path, success: !output.isError, ...(output.isError ? { error: output.content } : {}) });

const TABLE: readonly Row[] = [
  {
    awl: "bash",
    claude: "Bash",
    fields: [
      { awl: "command", claude: "command" },
      { awl: "timeout", claude: "timeout", toClaude: (s) => (typeof s === "number" ? s * 1000 : s), fromClaude: (ms) => (typeof ms === "number" ? ms / 1000 : ms) },
    ],
    // awl's bash gives one stream, stdout and stderr in the order written.
    response: (output) => ({ stdout: output.content, stderr: "", interrupted: output.interrupted ?? false, isImage: false }),
  },
  {
    awl: "read",
    claude: "Read",
    fields: [path, { awl: "offset", claude: "offset" }, { awl: "limit", claude: "limit" }],
    response: (output, input) => ({ type: "text", file: { filePath: input.file_path, content: output.content } }),
  },
  { awl: "write", claude: "Write", fields: [path, { awl: "content", claude: "content" }], response: fileResponse },
  {
    awl: "edit",
    claude: "Edit",
    fields: [path, { awl: "oldText", claude: "old_string" }, { awl: "newText", claude: "new_string" }],
    response: fileResponse,
  },
  {
    // A subagent's work (docs/subagents.md): Claude Code names the agent `subagent_type`.
    awl: "task",
    claude: "Task",
    fields: [{ awl: "description", claude: "description" }, { awl: "prompt", claude: "prompt" }, { awl: "agent", claude: "subagent_type" }],
    response: (output) => ({ content: [{ type: "text", text: output.content }] }),
  },
];

/** Claude Code's name for an awl tool (`bash` → `Bash`); any other tool keeps its own. */
export function claudeToolName(awlName: string): string {
  return TABLE.find((row) => row.awl === awlName)?.claude ?? awlName;
}

/** awl's name for a tool a Claude Code configuration names (`Bash` → `bash`); any other keeps its own. */
export function awlToolName(claudeName: string): string {
  return TABLE.find((row) => row.claude === claudeName)?.awl ?? claudeName;
}

/** A call's input as Claude Code would have given it to a hook. */
export function toClaudeInput(awlName: string, input: Input, cwd: string): Input {
  const row = TABLE.find((r) => r.awl === awlName);
  if (!row) return input;
  const out: Input = {};
  for (const field of row.fields) if (input[field.awl] !== undefined) out[field.claude] = field.toClaude ? field.toClaude(input[field.awl], cwd) : input[field.awl];
  return out;
}

/**
 * A hook's `updatedInput` as awl's tool takes it. Claude Code fields awl's
 * tool has no room for (Bash's `description`, Edit's `replace_all`) are
 * dropped: the tool's own check then judges what is left.
 */
export function fromClaudeInput(awlName: string, input: Input): Input {
  const row = TABLE.find((r) => r.awl === awlName);
  if (!row) return input;
  const out: Input = {};
  for (const field of row.fields) if (input[field.claude] !== undefined) out[field.awl] = field.fromClaude ? field.fromClaude(input[field.claude]) : input[field.claude];
  return out;
}

/** What a PostToolUse hook reads as `tool_response`. */
export function toolResponse(awlName: string, output: ToolOutput, claudeInput: Input): Input {
  const row = TABLE.find((r) => r.awl === awlName);
  return row ? row.response(output, claudeInput) : { content: output.content, isError: output.isError };
}
