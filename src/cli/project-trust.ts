// Whose code this run lets run (docs/extensions.md, "Trust"): the person's
// own unless --no-extensions; the project's hooks, extensions and MCP servers
// when the person trusted the project as its files are now, or said --trust
// for this run, or says yes to the question the REPL puts at a terminal (which
// lists everything that would run). Otherwise they are skipped, and one line
// says what was.

import { hasCode, projectCode, type ProjectCode } from "../extensions/project-code";
import { decideForThisRun, recordTrust, trustState, type CodeScope } from "../extensions/trust";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";

/** `ask`: a person is at a terminal to answer (the REPL); `say` writes one line of awl's. */
export async function codeScope(args: Args, cwd: string, ask: boolean, say: (line: string) => void): Promise<CodeScope> {
  if (args.noExtensions) {
    decideForThisRun(cwd, false);
    return { person: false, project: false };
  }
  // Trusted (or --trust, for this run: it is not kept): nothing more to read; a project never trusted costs no hash.
  const state = args.trust ? "trusted" : trustState(cwd);
  if (state === "trusted") {
    decideForThisRun(cwd, true);
    return { person: true, project: true };
  }
  // -p never asks, and allow rules only spare questions: its Markdown commands' allow-lists change nothing there, and are not said;
  // their `!`command` parts run only when a command is named, which says then that they did not (agent/command-turn.ts).
  const found = projectCode(cwd);
  const code = ask ? found : { ...found, allows: [], commands: [] };
  if (!hasCode(code)) {
    decideForThisRun(cwd, false); // nothing of the project's to run: asked later (MCP), the answer needs no hash
    return { person: true, project: false };
  }
  if (ask && (await askTrust(code, state, say))) {
    recordTrust(cwd);
    return { person: true, project: true };
  }
  decideForThisRun(cwd, false);
  say(skippedLine(code, state, ask));
  return { person: true, project: false };
}

async function askTrust(code: ProjectCode, state: "changed" | "new", say: (line: string) => void): Promise<boolean> {
  say(state === "changed" ? "This project's .awl/ or .mcp.json changed since you trusted it. Once trusted again, awl runs:" : "This project brings code awl would run once you trust it:");
  for (const hook of code.hooks) say(`  hook ${safeText(hook)}`);
  for (const module of code.modules) say(`  extension ${safeText(module)}`);
  for (const server of code.servers) say(`  MCP server ${safeText(server)}`);
  for (const command of code.commands) say(`  command ${safeText(command)} (run before its prompt is sent)`);
  for (const allow of code.allows) say(`  command ${safeText(allow)} (run without asking, during its turn)`);
  if (code.variables.length > 0) say(`  variables they expand: ${safeText(code.variables.join(", "))}`);
  say("A script these call from elsewhere is not covered by your answer: review it yourself (docs/extensions.md).");
  // Loaded only to ask: -p and a trusted project never pay for it.
  const { confirm, isCancel } = await import("@clack/prompts");
  const answer = await confirm({ message: "Trust this project and let them run?", initialValue: false });
  return !isCancel(answer) && answer === true;
}

/** What was skipped, in one line. */
function skippedLine(code: ProjectCode, state: "changed" | "new", asked: boolean): string {
  const count = (n: number, one: string, many = `${one}s`) => (n === 0 ? [] : [`${n} ${n === 1 ? one : many}`]);
  const what = [...count(code.hooks.length, "hook"), ...count(code.modules.length, "extension"), ...count(code.servers.length, ".mcp.json server"), ...count(code.commands.length, "!`command` part of a Markdown command", "!`command` parts of Markdown commands"), ...count(code.allows.length, "command allow-list")].join(", ");
  const why = state === "changed" ? "has changed since you trusted it" : "is not trusted";
  const next = asked ? "awl asks again next time" : "run awl here to be asked, or add --trust to run them this once";
  return `awl: this project ${why}: its ${what} did not run; ${next}`;
}
