// The `permissions` key of the settings files (docs/permissions.md): the
// person's $XDG_CONFIG_HOME/awl/settings.json may allow and deny; a project's
// .awl/settings.json and .awl/settings.local.json may only deny. Deny rules
// only take leave away, so a project's are read without asking whether the
// person trusts it; its allow rules are left out, and that is said once.

import { join } from "node:path";
import { configDir } from "../config-dir";
import { parseRule, type PermissionRule, type RuleKind } from "./permission-rules";
import { lineOf, projectSettingsFiles, readSettingsFile, settingsFiles } from "../extensions/settings";
import type { CodeScope } from "../extensions/trust";

export interface LoadedPermissions {
  rules: PermissionRule[];
  /** One line per file, or rule, that was skipped: `file:line` and why. */
  problems: string[];
}

/** The person's settings file: where "always, and save" writes. */
export const personSettingsFile = (env: Record<string, string | undefined>) => join(configDir(env), "settings.json");

/** `code`: whose hooks run (their files' problems are named by the hooks, once). */
export function loadPermissions(cwd: string, env: Record<string, string | undefined>, code: CodeScope): LoadedPermissions {
  const loaded: LoadedPermissions = { rules: [], problems: [] };
  const files: [string, readonly RuleKind[]][] = [[personSettingsFile(env), ["allow", "deny"]], ...projectSettingsFiles(cwd).map(({ file }): [string, readonly RuleKind[]] => [file, ["deny"]])];
  const hookFiles = settingsFiles(cwd, env, code).map(({ file }) => file);
  for (const [file, kinds] of files) {
    const read = readSettingsFile(file, "its permissions are skipped");
    if (read === undefined) continue;
    if ("problem" in read) {
      // A file the hooks read too is named once, by them (extensions/settings.ts).
      if (!hookFiles.includes(file)) loaded.problems.push(read.problem);
      continue;
    }
    const at = (key: string) => `${file}:${lineOf(read.text, key)}`;
    const permissions = (read.parsed as { permissions?: unknown } | null)?.permissions;
    if (permissions === undefined) continue;
    if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
      loaded.problems.push(`${at("permissions")}: "permissions" is not an object; it is skipped`);
      continue;
    }
    for (const kind of ["allow", "deny"] as const) {
      const list = (permissions as Record<string, unknown>)[kind];
      if (list === undefined) continue;
      if (!Array.isArray(list) || !list.every((rule) => typeof rule === "string")) {
        loaded.problems.push(`${at(kind)}: permissions.${kind} is not a list of rules (strings); it is skipped`);
        continue;
      }
      if (!kinds.includes(kind)) {
        if (list.length > 0) loaded.problems.push(`${at(kind)}: a project's settings may only deny; its ${list.length} allow rule${list.length === 1 ? " is" : "s are"} ignored (allow rules belong in ${personSettingsFile(env)})`);
        continue;
      }
      for (const text of list as string[]) {
        const rule = parseRule(text, kind, file);
        if ("problem" in rule) loaded.problems.push(`${at(text)}: ${rule.problem}; it is skipped`);
        else loaded.rules.push(rule);
      }
    }
  }
  return loaded;
}
