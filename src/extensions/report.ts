// What `awl extensions` and /extensions say: the extensions tried (the
// person's, a trusted project's), from where, what each registered (tools,
// commands, renderers, handlers) or why it is not loaded, the hooks in force
// and whose they are, the project's Markdown commands' programs waiting for
// trust, what failed, and whether this project is trusted. Plain
// lines: the caller makes them safe for the terminal.

import { relative, sep } from "node:path";
import type { ExtensionHost, ModuleReport } from "./host";
import { extensionModules, extensionsDir, projectExtensionsDir } from "./modules";
import { hasCode, projectCode, type ProjectCode } from "./project-code";
import { loadSettings, settingsFiles } from "./settings";
import { trustState, type CodeScope } from "./trust";

type Env = Record<string, string | undefined>;

export function extensionsReport(cwd: string, env: Env, host: ExtensionHost | undefined, scope: CodeScope): string[] {
  // What the project would run, read once: what waits for trust, and whether there is anything to trust.
  const code = projectCode(cwd);
  if (!scope.person) return ["No extension or hook runs: awl started with --no-extensions.", trustLine(cwd, env, scope, code)];
  const lines = ["Extensions:"];
  const folders: [string, string, boolean][] = [
    ["yours", extensionsDir(env), true],
    ["this project's", projectExtensionsDir(cwd), scope.project],
  ];
  for (const [whose, dir, runs] of folders) {
    if (!runs) {
      const waiting = extensionModules(dir).length;
      lines.push(`  ${whose} (${dir}): ${waiting > 0 ? `${waiting} not loaded, until you trust this project` : "none"}`);
      continue;
    }
    const here = (host?.modules ?? []).filter((m) => m.origin.startsWith(`${dir}${sep}`));
    lines.push(`  ${whose} (${dir}):${here.length > 0 ? "" : " none"}`);
    for (const m of here) lines.push(`    ${relative(dir, m.origin)}: ${m.failed !== undefined ? `not loaded: ${m.failed}` : registered(m)}`);
  }

  lines.push("Hooks:");
  const settings = loadSettings(settingsFiles(cwd, env, scope));
  for (const source of settings.sources) {
    for (const [event, groups] of Object.entries(source.hooks)) {
      for (const group of groups ?? []) {
        for (const hook of group.hooks) lines.push(`  ${event}${group.matcher ? ` (${group.matcher})` : ""}: ${hook.command}  (${source.scope === "person" ? "yours" : "this project's"}, ${source.file})`);
      }
    }
  }
  if (settings.sources.length === 0) lines.push("  none");
  const waiting = scope.project ? undefined : code;
  if (waiting?.hooks.length) lines.push(`  this project's ${waiting.hooks.length} hook${waiting.hooks.length === 1 ? "" : "s"}: not run, until you trust this project`);
  if (waiting?.commands.length || waiting?.allows.length) {
    lines.push("Markdown commands:");
    if (waiting.commands.length) lines.push(`  this project's ${waiting.commands.length} !\`command\` part${waiting.commands.length === 1 ? "" : "s"}: not run, until you trust this project`);
    if (waiting.allows.length) lines.push(`  this project's ${waiting.allows.length} allowed-tools list${waiting.allows.length === 1 ? "" : "s"}: ignored, until you trust this project`);
  }

  const failed = [...settings.problems, ...(host?.failures() ?? [])];
  if (failed.length > 0) lines.push("Failed:", ...failed.map((line) => `  ${line}`));
  lines.push(trustLine(cwd, env, scope, code));
  return lines;
}

function registered(m: ModuleReport): string {
  const parts = [
    ...(m.tools.length > 0 ? [`tools ${m.tools.join(", ")}`] : []),
    ...(m.commands.length > 0 ? [`commands ${m.commands.map((c) => `/${c}`).join(", ")}`] : []),
    ...(m.renderers.length > 0 ? [`renderers of ${m.renderers.join(", ")} entries`] : []),
    ...(m.handlers.length > 0 ? [`handlers ${[...new Set(m.handlers)].join(", ")}`] : []),
  ];
  return parts.length > 0 ? parts.join("; ") : "registered nothing";
}

function trustLine(cwd: string, env: Env, scope: CodeScope, code: ProjectCode): string {
  if (!hasCode(code)) return "This project brings no hooks, extensions, .mcp.json servers or commands that run programs of its own: nothing to trust.";
  const state = trustState(cwd, env);
  if (state === "trusted") return "This project is trusted: its hooks, extensions, .mcp.json servers and Markdown commands' !`command` parts run.";
  if (scope.project) return "This project is trusted for this run only (--trust).";
  return state === "changed"
    ? "This project changed since you trusted it: its code does not run until you say yes again (run awl here to be asked)."
    : "This project is not trusted: its code does not run (run awl here to be asked, or add --trust for one run).";
}
