// /init: asks the model to write AGENTS.md, the instructions file agents read
// (docs/architecture.md, "Project instructions"), from the repository itself.
// What awl sees at once goes with the request (the top of the tree, the
// scripts of package.json, a Makefile's targets); the model looks further
// with its tools. The file is written with the write or edit tool, so the
// person sees it, and approves it, as any other change; an AGENTS.md that is
// there already is improved by edits that keep what it says, never replaced
// unasked.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Top-level entries named at most. */
const MAX_ENTRIES = 60;

export function initPrompt(cwd: string): string {
  const exists = existsSync(join(cwd, "AGENTS.md"));
  const facts = [topLevel(cwd), packageScripts(cwd), makeTargets(cwd)].filter(Boolean).join("\n");
  return [
    "Write AGENTS.md at the top of this repository: the instructions a coding agent reads before it works here.",
    "Look before you write: list the files, read the README and the build files. Then say, briefly and only what the files show:",
    "- the layout (what lives where);",
    "- how to build, run the tests (the exact commands, one test file too if the tool allows it) and lint;",
    "- the conventions the code and its docs follow (style, naming, how commits and tests are written).",
    "Keep it under about 80 lines; no guesses, no generic advice.",
    exists
      ? "AGENTS.md exists already: read it first and improve it with the edit tool, keeping what it says that is still true; do not replace it with the write tool."
      : "There is no AGENTS.md yet: create it with the write tool.",
    ...(facts ? ["", "What awl saw at the top of the repository:", facts] : []),
  ].join("\n");
}

function topLevel(cwd: string): string {
  try {
    const entries = readdirSync(cwd, { withFileTypes: true }).filter((e) => e.name !== ".git").map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    const more = entries.length > MAX_ENTRIES ? ` … ${entries.length - MAX_ENTRIES} more` : "";
    return entries.length ? `Files and folders: ${entries.slice(0, MAX_ENTRIES).join(", ")}${more}` : "";
  } catch {
    return "";
  }
}

function packageScripts(cwd: string): string {
  try {
    const scripts = (JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as { scripts?: Record<string, unknown> }).scripts ?? {};
    const rows = Object.entries(scripts).filter(([, v]) => typeof v === "string").map(([k, v]) => `  ${k}: ${v}`);
    return rows.length ? `package.json scripts (npm run <name>):\n${rows.join("\n")}` : "";
  } catch {
    return "";
  }
}

function makeTargets(cwd: string): string {
  try {
    const targets = [...readFileSync(join(cwd, "Makefile"), "utf8").matchAll(/^([A-Za-z][\w.-]*):(?!=)/gm)].map((m) => m[1]!);
    return targets.length ? `Makefile targets: ${[...new Set(targets)].join(", ")}` : "";
  } catch {
    return "";
  }
}
