// The settings files, in Claude Code's shape (docs/hooks.md): the person's
// $XDG_CONFIG_HOME/awl/settings.json, then the project's .awl/settings.json
// and .awl/settings.local.json. The hooks are read here; the permissions by
// agent/permission-settings.ts, the sandbox's settings by tools/sandbox. A file that cannot be read or does not have the
// shape is named once, `file:line`, and skipped: the session goes on.
//
// A project's files run programs someone else wrote, so their hooks are read
// only once the person trusts the project (trust.ts).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../config-dir";
import { jsonErrorLine } from "./json-error-line";
import type { ReadHooks } from "./hooks/settings-schema";
import type { CodeScope } from "./trust";

/** A settings file, and whose it is: a project's may only tighten (its hooks' allow is not an allow). */
export interface SettingsFile {
  file: string;
  scope: "person" | "project";
}

/** One settings file's hooks, by event name, with the file they came from. */
export interface HookSource extends SettingsFile {
  hooks: ReadHooks["hooks"];
}

export interface LoadedSettings {
  /** The person's first, then the project's: the order hooks run in. */
  sources: HookSource[];
  /** One line per file that was skipped, or per part of one that was. */
  problems: string[];
}

/** The project's settings files in `cwd`. */
export function projectSettingsFiles(cwd: string): SettingsFile[] {
  return [join(cwd, ".awl", "settings.json"), join(cwd, ".awl", "settings.local.json")].map((file) => ({ file, scope: "project" }));
}

/** The settings files whose hooks run in `cwd`, in the order they run: the person's, then the project's, as `scope` lets them. */
export function settingsFiles(cwd: string, env: Record<string, string | undefined>, scope: CodeScope): SettingsFile[] {
  const person: SettingsFile[] = scope.person ? [{ file: join(configDir(env), "settings.json"), scope: "person" }] : [];
  return [...person, ...(scope.project ? projectSettingsFiles(cwd) : [])];
}

export function loadSettings(files: SettingsFile[]): LoadedSettings {
  const loaded: LoadedSettings = { sources: [], problems: [] };
  for (const { file, scope } of files) {
    const read = readSettingsFile(file, "it is skipped until fixed: no hooks run from it, and bash commands get no network");
    if (read === undefined) continue;
    if ("problem" in read) {
      loaded.problems.push(read.problem);
      continue;
    }
    const { text, parsed } = read;
    // The schema (arktype) loads only when there is a file to check: start-up without one does not pay for it.
    const { readHooks } = require("./hooks/settings-schema") as typeof import("./hooks/settings-schema");
    const hooks = readHooks(parsed);
    for (const problem of hooks.problems) loaded.problems.push(`${file}:${lineOf(text, problem.key)}: ${problem.message}`);
    if (Object.keys(hooks.hooks).length > 0) loaded.sources.push({ file, scope, hooks: hooks.hooks });
  }
  return loaded;
}

/** A settings file's text and JSON; undefined when there is none; the line that names it, `file:line`, when it cannot be read. `skipped` ends that line. */
export function readSettingsFile(file: string, skipped: string): { text: string; parsed: unknown } | { problem: string } | undefined {
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { problem: `${file}: could not be read (${error instanceof Error ? error.message : String(error)}); ${skipped}` };
  }
  try {
    return { text, parsed: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^JSON Parse error: /, "") : String(error);
    return { problem: `${file}:${jsonErrorLine(text)}: not valid JSON (${reason}); ${skipped}` };
  }
}

/** The line where `"key"` first appears, for a problem with a part of the file; 1 when it does not. */
export function lineOf(text: string, key: string | undefined): number {
  const at = key === undefined ? -1 : text.indexOf(JSON.stringify(key));
  return at === -1 ? 1 : text.slice(0, at).split("\n").length;
}
