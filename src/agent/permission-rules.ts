// Permissions that last: `permissions.allow` and `permissions.deny` in a
// settings file, in Claude Code's rule syntax (docs/permissions.md):
//
//   Bash                every command          Bash(npm test)     that command exactly
//   Bash(git diff:*)    `git diff` with any arguments (a prefix of whole words)
//   Edit(src/**)        edit and write calls on those paths    Write(…) write calls only
//   Read(~/.ssh/**)     read calls on those paths              Other(…) any tool by its name
//
// A path pattern is a glob: `//x` is absolute, `~/x` is under the home
// folder, `/x` and `x/y` are under the project, and a bare name (`.env`,
// `*.pem`) matches at any depth.
//
// Deny is generous (any part of a command, even one that cannot be parsed
// whole, that a rule names refuses it); allow is strict: every part of a
// command that may change something must be covered by an allow rule, and a
// prefix rule for a program awl knows the subcommands of never covers the
// arguments "always" would not (`git push --force`: approval-scope.ts).

import { join } from "node:path";
import { claudeToolName } from "../extensions/hooks/tool-names";
import { SUBCOMMAND_PROGRAMS, subcommandKey } from "./approval-scope";
import { judge, writesFile } from "./read-only";
import type { SimpleCommand } from "./shell-command";

export type RuleKind = "allow" | "deny";

export interface PermissionRule {
  kind: RuleKind;
  /** As written in the file: what /permissions shows and a refusal names. */
  text: string;
  /** Claude Code's tool name (`Bash`, `Edit`…). */
  tool: string;
  /** What is inside the parentheses; undefined for the whole tool. */
  spec?: string;
  /** The settings file it came from. */
  source: string;
}

/** The tools whose parentheses awl reads: a command for Bash, a path pattern for the others. */
const PATH_TOOLS = ["Read", "Edit", "Write"];

/** A rule from its text, or why it cannot be one. */
export function parseRule(text: string, kind: RuleKind, source: string): PermissionRule | { problem: string } {
  const match = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(text.trim());
  if (!match) return { problem: `"${text}" is not a rule (Tool or Tool(specifier), as Bash(npm test) or Edit(src/**))` };
  const [, tool, spec] = match as unknown as [string, string, string | undefined];
  if (spec !== undefined && spec.trim() === "") return { problem: `"${text}" has nothing in its parentheses` };
  if (spec !== undefined && tool !== "Bash" && !PATH_TOOLS.includes(tool)) return { problem: `"${text}": awl reads what is in the parentheses only for Bash, ${PATH_TOOLS.join(", ")}` };
  return { kind, text: text.trim(), tool, source, ...(spec === undefined ? {} : { spec: spec.trim() }) };
}

/** Where path patterns start: the project (the working directory) and the home folder (`~/`). */
export interface Places {
  cwd: string;
  home: string;
}

/** What a rule is checked against: the call's tool, and its command or path. */
export interface RuleTarget {
  /** awl's tool name. */
  tool: string;
  command?: string;
  /** Absolute. */
  path?: string;
}

/** Does the rule name this tool (an Edit rule covers write calls too, as in Claude Code)? */
function namesTool(rule: PermissionRule, tool: string): boolean {
  const name = claudeToolName(tool);
  return rule.tool === name || (rule.tool === "Edit" && name === "Write");
}

/** The first deny rule that refuses this call, if any. */
export function denying(rules: readonly PermissionRule[], target: RuleTarget, places: Places): PermissionRule | undefined {
  return rules.find((rule) => rule.kind === "deny" && namesTool(rule, target.tool) && (rule.spec === undefined || specDenies(rule, target, places)));
}

function specDenies(rule: PermissionRule, target: RuleTarget, places: Places): boolean {
  if (rule.tool === "Bash") return target.command !== undefined && commandNamed(rule.spec!, target.command);
  return target.path !== undefined && pathMatches(rule.spec!, target.path, places);
}

/** Does any part of the command (or the text, when it cannot be parsed) start as the deny rule says? */
function commandNamed(spec: string, command: string): boolean {
  const { words, prefix } = ruleWords(spec);
  const judged = judge(command);
  if (!judged) return prefix ? ` ${command} `.includes(` ${words.join(" ")} `) || command.trim().startsWith(words.join(" ")) : command.trim() === spec;
  if (!prefix && command.trim() === spec) return true;
  return judged.commands.some((part) => {
    const texts = part.words.map((w) => w.text);
    return prefix ? words.every((w, i) => texts[i] === w) : texts.join(" ") === words.join(" ");
  });
}

/** A Bash rule's words, and whether it is a prefix (`git diff:*`). */
function ruleWords(spec: string): { words: string[]; prefix: boolean } {
  const prefix = spec.endsWith(":*");
  return { words: (prefix ? spec.slice(0, -2) : spec).trim().split(/\s+/), prefix };
}

/** Whether the whole tool, or this path, is allowed by a rule (for the write and edit tools, and tools without a command). */
export function allowsCall(rules: readonly PermissionRule[], target: RuleTarget, places: Places): boolean {
  return rules.some((rule) => rule.kind === "allow" && namesTool(rule, target.tool) && (rule.spec === undefined || (rule.tool !== "Bash" && target.path !== undefined && pathMatches(rule.spec, target.path, places))));
}

/** Whether the command as a whole is what an allow rule names exactly (`Bash(cd web && make)`), or the tool is allowed whole. */
export function allowsCommand(rules: readonly PermissionRule[], command: string): boolean {
  return bashAllows(rules).some((rule) => rule.spec === undefined || rule.spec === command.trim());
}

/** Whether one part of a command is covered by an allow rule. */
export function allowsPart(rules: readonly PermissionRule[], part: SimpleCommand): boolean {
  // Only the text written runs: no variable, no expansion, no file written by a redirection.
  if (part.assignments.length > 0 || writesFile(part) || !part.words.every((w) => w.literal)) return false;
  const texts = part.words.map((w) => w.text);
  return bashAllows(rules).some((rule) => {
    if (rule.spec === undefined) return true;
    const { words, prefix } = ruleWords(rule.spec);
    if (!prefix) return texts.join(" ") === words.join(" ");
    if (!words.every((w, i) => texts[i] === w)) return false;
    // A program whose subcommands awl knows: only what "always" would cover for it.
    return !SUBCOMMAND_PROGRAMS.has(texts[0]!) || words.length < 2 || subcommandKey(part) === words.slice(0, 2).join(" ");
  });
}

const bashAllows = (rules: readonly PermissionRule[]) => rules.filter((rule) => rule.kind === "allow" && rule.tool === "Bash");

/** Does the absolute `path` match the rule's pattern? */
export function pathMatches(pattern: string, path: string, places: Places): boolean {
  return new Bun.Glob(absolutePattern(pattern, places)).match(path);
}

function absolutePattern(written: string, { cwd, home }: Places): string {
  // A folder (`src/`) stands for everything under it, as in .gitignore.
  const pattern = written.endsWith("/") ? `${written}**` : written;
  if (pattern.startsWith("//")) return pattern.slice(1);
  if (pattern.startsWith("~/")) return join(home, pattern.slice(2));
  if (pattern.startsWith("/")) return join(cwd, pattern);
  if (!pattern.includes("/")) return join(cwd, "**", pattern);
  return join(cwd, pattern);
}

/** The rules "always" saves for what it allowed: the tool, `Bash(git add:*)` for a subcommand scope, the exact command. */
export function savedRules(scope: { tool: string } | { kind: "subcommands"; keys: string[] } | { kind: "exact"; command: string }): string[] {
  if ("tool" in scope) return [claudeToolName(scope.tool)];
  return scope.kind === "exact" ? [`Bash(${scope.command})`] : scope.keys.map((key) => `Bash(${key}:*)`);
}
