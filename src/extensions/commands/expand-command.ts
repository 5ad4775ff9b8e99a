// A Markdown command typed with its arguments, made into the prompt it sends,
// as Claude Code expands its custom slash commands: `$ARGUMENTS` is all that
// followed the name, `$1`… each argument (quotes group words); `@path`
// attaches the file's text (relative to the working directory); a `!`cmd``
// would run a program first: not done yet (it must be asked about as a bash
// call is), so the prompt goes without its output and the person is told.

import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { MarkdownCommand } from "./markdown-commands";

/** More than this of an attached file is cut, with a note: a prompt is not the place for a whole build log. */
const MAX_ATTACHED_CHARS = 100 * 1024;

export interface Expanded {
  prompt: string;
  /** One line each for the person: what was not done. */
  notices: string[];
}

export function expandCommand(command: MarkdownCommand, argument: string, cwd: string): Expanded {
  const args = [...argument.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const notices: string[] = [];
  let prompt = command.body.replace(/\$ARGUMENTS|\$(\d+)/g, (whole, n: string | undefined) => (n === undefined ? argument : (args[Number(n) - 1] ?? "")));
  if (/!`[^`]+`/.test(prompt)) notices.push(`/${command.name}: its !\`command\` parts were not run (awl does not run them yet); the prompt went without their output`);
  const attached: string[] = [];
  for (const match of prompt.matchAll(/(?<=^|\s)@([^\s`]+)/g)) {
    const path = resolve(cwd, match[1]!);
    if (!existsSync(path) || !statSync(path).isFile()) continue;
    const text = readFileSync(path, "utf8");
    const shown = text.length > MAX_ATTACHED_CHARS ? `${text.slice(0, MAX_ATTACHED_CHARS)}\n[cut: the file has ${text.length} characters]` : text;
    attached.push(`Contents of ${match[1]}:\n\`\`\`\n${shown}${shown.endsWith("\n") ? "" : "\n"}\`\`\``);
  }
  prompt = [prompt.trim(), ...attached].join("\n\n");
  return { prompt, notices };
}
