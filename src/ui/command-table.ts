// The commands a typed line can name, found once, for the REPL and for
// `awl -p "/name args"` alike: the built-in ones first, then the Markdown
// commands (extensions/commands/markdown-commands.ts), then the extensions';
// a later one that takes an earlier name is skipped and named. And a Markdown
// command made ready to send, or refused in one line before anything runs.

import type { Agent } from "../agent/agent";
import { prepareCommandTurn, type CommandTurn } from "../agent/command-turn";
import type { ExtensionCommand } from "../extensions/api";
import { loadMarkdownCommands, type MarkdownCommand } from "../extensions/commands/markdown-commands";
import type { ExtensionHost } from "../extensions/host";
import { UsageError } from "../errors";
import type { Catalogues } from "../providers/catalogue";
import { ALIASES, commandNames, parseCommand, type Command } from "./commands";
import { unservedModel } from "./model-command";

export interface CommandTable {
  markdown: MarkdownCommand[];
  /** One line each: a Markdown command's file skipped, or a line of it (the extensions' clashes are said by their host). */
  problems: string[];
  /** The extensions' commands, each with the extension it came from. */
  added: { command: ExtensionCommand; origin: string }[];
  /** Every name a line can take: the built-in ones (aliases aside), the Markdown commands', the extensions'. */
  names: string[];
  /** The command `line` holds, or undefined when it is a prompt (it starts with a space, or with a path). */
  parse(line: string): Command | undefined;
}

/** The built-in commands' names, aliases included: no file or extension can take them. */
export function builtInNames(): string[] {
  return [...commandNames(), ...ALIASES];
}

export function commandTable(cwd: string, env: Record<string, string | undefined>, extensions: ExtensionHost | undefined): CommandTable {
  const loaded = loadMarkdownCommands(cwd, env, builtInNames());
  const markdownNames = loaded.commands.map((m) => m.name);
  const added = extensions?.commandsBeside([...builtInNames(), ...markdownNames]) ?? [];
  const names = [...markdownNames, ...added.map((a) => a.command.name)];
  return { markdown: loaded.commands, problems: loaded.problems, added, names: [...commandNames(), ...names], parse: (line) => parseCommand(line, undefined, names) };
}

/**
 * The command typed with `argument`, ready to run; a UsageError, in one
 * line, when its model cannot be sent: one awl cannot use, or one its
 * provider's list (where it answered one) lacks.
 */
export function readyCommand(agent: Agent, file: MarkdownCommand, argument: string, catalogues: Catalogues): CommandTurn {
  const turn = prepareCommandTurn(agent, file, argument);
  const unserved = turn.model && unservedModel(turn.model, catalogues);
  if (unserved) throw new UsageError(`/${file.name}: ${unserved}: nothing was sent`);
  return turn;
}
