// Markdown commands: prompts kept as files, as Claude Code keeps them
// (`.claude/commands/*.md`), found in $XDG_CONFIG_HOME/awl/commands/ (the
// person's), then the project's .awl/commands/ and .claude/commands/. A file's
// name is its command (`review.md` is /review; in a subfolder too). Their
// words load without the project being trusted; what runs or allows a program
// waits for trust: a project's command runs its `!`cmd`` parts (as bash calls
// of the model's would run) and counts its `allowed-tools` only once the
// project is trusted (agent/command-turn.ts).
// A name that a built-in command, or an earlier folder's file, already has is
// skipped, and named once: built-in > the person's > the project's.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { configDir } from "../../config-dir";
import { frontMatter } from "./front-matter";

export interface MarkdownCommand {
  name: string;
  file: string;
  /** `person` or `project`: whose folder it came from, shown in /help. */
  scope: "person" | "project";
  description?: string;
  argumentHint?: string;
  /** Claude Code's permission rules (`Bash(git add:*), Read`), allowed without asking for the turn it starts. */
  allowedTools?: string;
  /** The model its turn runs with: an id, provider/id, or sonnet/opus/haiku. */
  model?: string;
  body: string;
}

export interface LoadedCommands {
  commands: MarkdownCommand[];
  /** One line each: a file that could not be read, a front matter line skipped, a clash. */
  problems: string[];
}

/** The command folders in the order a name is taken: the person's, then the project's. */
function folders(cwd: string, env: Record<string, string | undefined>): { dir: string; scope: MarkdownCommand["scope"] }[] {
  return [{ dir: join(configDir(env), "commands"), scope: "person" }, ...projectCommandDirs(cwd).map((dir) => ({ dir, scope: "project" as const }))];
}

/** The project's command folders: .awl/commands/, then .claude/commands/. */
export function projectCommandDirs(cwd: string): string[] {
  return [join(cwd, ".awl", "commands"), join(cwd, ".claude", "commands")];
}

export function loadMarkdownCommands(cwd: string, env: Record<string, string | undefined>, builtIn: readonly string[]): LoadedCommands {
  const loaded: LoadedCommands = { commands: [], problems: [] };
  const taken = new Map<string, string>(builtIn.map((name) => [name, "a built-in command"]));
  for (const { dir, scope } of folders(cwd, env)) {
    for (const file of markdownFiles(dir)) {
      const name = basename(file, ".md").toLowerCase();
      if (!/^[a-z][\w-]*$/.test(name)) {
        loaded.problems.push(`${file}: /${name} cannot be typed as a command (letters, digits, - and _, starting with a letter); skipped`);
        continue;
      }
      const holder = taken.get(name);
      if (holder) {
        loaded.problems.push(`${file}: /${name} is already ${holder}; this file is skipped`);
        continue;
      }
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        loaded.problems.push(`${file}: could not be read (${error instanceof Error ? error.message : String(error)}); skipped`);
        continue;
      }
      const { fields, body, badLines } = frontMatter(text);
      for (const line of badLines) loaded.problems.push(`${file}:${line}: not a "key: value" line of front matter; skipped`);
      taken.set(name, file);
      loaded.commands.push({
        name,
        file,
        scope,
        body,
        ...(fields.description ? { description: fields.description } : {}),
        ...(fields["argument-hint"] ? { argumentHint: fields["argument-hint"] } : {}),
        ...(fields["allowed-tools"] ? { allowedTools: fields["allowed-tools"] } : {}),
        ...(fields.model ? { model: fields.model } : {}),
      });
    }
  }
  return loaded;
}

/** The `.md` files under `dir`, subfolders included, in a stable order; none when it does not exist. */
export function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".md"))
      .map((f) => join(dir, f))
      .filter((f) => statSync(f).isFile())
      .sort((a, b) => relative(dir, a).localeCompare(relative(dir, b)));
  } catch {
    return [];
  }
}

/** How /help lists a command: its usage, and what it does (its description, else its first line). */
export function commandHelp(command: MarkdownCommand): [string, string] {
  const usage = `/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ""}`;
  const what = command.description ?? command.body.split("\n").find((line) => line.trim() !== "")?.trim() ?? "";
  return [usage, `${what} (${command.scope === "person" ? "yours" : "this project's"})`];
}
