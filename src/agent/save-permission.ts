// "Always, and save": the rules go into `permissions.allow` of the person's
// settings.json, the rest of the file kept as it was (its keys and values;
// the layout becomes JSON's own, two spaces). Written whole or not at all
// (private-file.ts); through a link to the file it points at (dotfiles kept
// in a repository often are links); a file that is not a JSON object is
// never overwritten.

import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../errors";
import { mkdirPrivate, writeFileAtomic } from "../private-file";

/** Adds the rules not there yet to `file`'s permissions.allow; throws a UserError that says why it could not. */
export function saveAllowRules(file: string, rules: readonly string[]): void {
  const target = existsSync(file) ? realpathSync(file) : file;
  let settings: Record<string, unknown> = {};
  if (existsSync(target)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(target, "utf8"));
    } catch {
      throw new UserError(`${file} is not valid JSON; it was left as it is`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UserError(`${file} is not a JSON object; it was left as it is`);
    settings = parsed as Record<string, unknown>;
  }
  const permissions = settings.permissions ?? {};
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) throw new UserError(`"permissions" in ${file} is not an object; the file was left as it is`);
  const allow = (permissions as { allow?: unknown }).allow ?? [];
  if (!Array.isArray(allow)) throw new UserError(`permissions.allow in ${file} is not a list; the file was left as it is`);
  const added = rules.filter((rule) => !allow.includes(rule));
  if (added.length === 0) return;
  settings.permissions = { ...permissions, allow: [...allow, ...added] };
  mkdirPrivate(dirname(target));
  writeFileAtomic(target, `${JSON.stringify(settings, null, 2)}\n`);
}
