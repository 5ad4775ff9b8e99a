// /permissions: the rules in force (deny first, as they are checked), each
// with the settings file it came from, then what "always" allowed until awl
// exits, and the mode (docs/permissions.md).

import type { Approvals } from "../agent/approval";
import { personSettingsFile } from "../agent/permission-settings";
import type { Colors } from "./render/colors";
import { safeText } from "./render/safe-text";

export function permissionsText(approvals: Approvals, c: Colors, env: Record<string, string | undefined> = process.env): string {
  const rules = [...approvals.rules].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "deny" ? -1 : 1));
  const width = Math.max(0, ...rules.map((rule) => rule.text.length));
  const rows = rules.map((rule) => `  ${(rule.kind === "deny" ? c.red : c.green)(rule.kind.padEnd(6))} ${safeText(rule.text).padEnd(width)}  ${c.dim(safeText(rule.source))}`);
  for (const allowed of approvals.allowed) rows.push(`  ${c.green("always")} ${safeText(allowed).padEnd(width)}  ${c.dim("until awl exits")}`);
  const head = rows.length > 0 ? "Permission rules (a deny wins over every allow, \"always\", hook and mode):" : `No permission rules: permissions.allow and permissions.deny in ${safeText(personSettingsFile(env))} add them (a project's .awl/settings.json may only deny).`;
  return [head, ...rows, `Approval mode ${c.bold(approvals.mode)} (Shift+Tab at the prompt cycles ask, auto, read-only)`].join("\n");
}
