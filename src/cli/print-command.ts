// `awl -p "/name args"`: a prompt that names a Markdown command runs it, as
// the REPL does (agent/command-turn.ts), found by the REPL's rules
// (ui/command-table.ts): a prompt that starts with a path, or with a space,
// is a prompt. The REPL's own commands and the extensions' are the REPL's:
// -p refuses them in one line, and a name no command has too, as the REPL
// does (a typo would cost a request, and run unwatched). `-p -` is always a
// prompt: what standard input holds is never taken for a command.

import type { MarkdownCommand } from "../extensions/commands/markdown-commands";
import type { ExtensionHost } from "../extensions/host";
import { UsageError } from "../errors";
import { builtInNames, commandTable } from "../ui/command-table";

export interface PrintCommand {
  file: MarkdownCommand;
  argument: string;
}

/** The Markdown command `prompt` names, or undefined when it is a prompt; a UsageError when it names one -p does not run. */
export function printCommand(prompt: string, cwd: string, extensions: ExtensionHost | undefined, say: (line: string) => void): PrintCommand | undefined {
  if (!prompt.startsWith("/")) return undefined; // no folder read for a plain prompt
  const table = commandTable(cwd, process.env, extensions);
  const command = table.parse(prompt);
  if (!command) return undefined;
  for (const problem of table.problems) say(problem);
  const file = table.markdown.find((m) => m.name === command.name);
  if (file) return { file, argument: command.argument };
  const asPrompt = "to send it as a prompt, begin it with a space";
  if (builtInNames().includes(command.name) || table.added.some((a) => a.command.name === command.name)) {
    throw new UsageError(`/${command.name} is a command of the interactive mode, which -p does not run (-p runs Markdown commands; ${asPrompt}) (see awl --help)`);
  }
  throw new UsageError(`unknown command /${command.name}: no Markdown command has that name (${asPrompt}) (see awl --help)`);
}
