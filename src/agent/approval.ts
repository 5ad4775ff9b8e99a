// When a tool may act (`--approve ask|auto|read-only`, AWL_APPROVE, /approve):
// the policy the agent consults before each tool call. It decides; whoever
// shows the turn asks the person (ui/session/approval.ts in the REPL). Nothing here is
// written to the log: a refusal reaches it only as the call's tool result.
//
// Each call is judged by its effect (the tool's own account of what the call
// does, tools/tool.ts), never by the tool's name, and fails closed: anything
// whose effect is not `read` needs the mode's leave.
//
// - ask: `read` calls, and `exec` calls whose command the read-only rules pass
//   (read-only.ts), run; every other call is asked about, unless the person
//   answered "always" for that tool, or for that command's scope
//   (approval-scope.ts: program + subcommand, or the exact command), earlier
//   in this process.
// - auto: everything runs, as it is, but what a deny rule names.
// - read-only: calls that are not `read` are refused with a tool error the
//   model can read.
//
// Rules from the settings files (permission-rules.ts) come first and last: a
// deny rule refuses in every mode; an allow rule counts as an "always" given
// before, in ask mode only (it never lifts read-only). A Markdown command's
// `allowed-tools` are allow rules for the one turn it starts.
//
// A read-only command that runs without being asked about runs with git's
// configured programs off (git-guard.ts).

import { homedir } from "node:os";
import type { ApprovalMode } from "./approval-mode";
import { alwaysScope, describeScope, subcommandKey, type AlwaysScope } from "./approval-scope";
import { guardGit } from "./git-guard";
import { toClaudeInput } from "../extensions/hooks/tool-names";
import { UserError } from "../errors";
import { personSettingsFile } from "./permission-settings";
import { saveAllowRules } from "./save-permission";
import { allowsCall, allowsCommand, allowsPart, denying, parseRule, savedRules, type PermissionRule, type RuleTarget } from "./permission-rules";
import { isReadOnlyCommand, judge, READ_ONLY_PROGRAMS } from "./read-only";
import type { SimpleCommand } from "./shell-command";
import { effectOf, isValidCall, proposal, type CallEffect, type InvalidCall, type ProposedChange, type ToolCall } from "../tools";

export { APPROVAL_MODES, describeMode, isApprovalMode, type ApprovalMode } from "./approval-mode";

/** What a call that may change something does. */
export type ActingEffect = Exclude<CallEffect, { kind: "read" }>;

export interface ApprovalRequest {
  /** The tool's name, as the person sees it. */
  tool: string;
  effect: ActingEffect;
  /** For a `write` effect: the change as it would be made, from the file as it is now. */
  proposed?: ProposedChange;
  /** What answering "always" allows until awl exits, as the person reads it: the tool's name, `git add …` (that subcommand, with any arguments), or only this exact command; undefined when it cannot be offered. */
  always?: string[];
  /** Why a command that would otherwise have run unasked is asked about. */
  note?: string;
  /** The subagent whose call it is (its name and task), when it is not the session's own. */
  agent?: string;
  /** The rules "always, and save" writes to the person's settings (`Bash(git add:*)`); undefined with `always`. */
  save?: string[];
}

export type ApprovalAnswer = { kind: "yes" } | { kind: "always" } | { kind: "save" } | { kind: "no"; reason?: string } | { kind: "interrupted" };

/** Asks the person about one call; resolves "interrupted" when they stopped the turn instead (Esc, Ctrl+C, a signal). */
export type Ask = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

export type Decision =
  /** Run it, as this call (a read-only command may have been guarded). */
  | { action: "run"; call: ToolCall | InvalidCall }
  | { action: "ask"; request: ApprovalRequest }
  /** Do not run it; this is the call's (error) result. */
  | { action: "refuse"; content: string };

export class Approvals {
  mode: ApprovalMode;
  /** The mode awl started in (--approve, AWL_APPROVE, else ask): the idle prompt names the mode only when it is another. */
  readonly standing: ApprovalMode;
  readonly #tools = new Set<string>();
  /** Subcommand scopes (`git add`) and exact commands, each as allowed. */
  readonly #subcommands = new Set<string>();
  readonly #exact = new Set<string>();
  /** What each question's "always" would allow: the tool, or the command's scope. */
  readonly #offered = new WeakMap<ApprovalRequest, AlwaysScope | { tool: string }>();
  /** Allow rules for one turn only (a Markdown command's `allowed-tools`): read as the settings' are, never shown or saved. */
  #forTurn: readonly PermissionRule[] = [];

  constructor(
    mode: ApprovalMode,
    private readonly env: Record<string, string | undefined> = process.env,
    /** From the settings files, the person's first; "always, and save" adds to them. */
    readonly rules: PermissionRule[] = [],
  ) {
    this.mode = mode;
    this.standing = mode;
  }

  /** What "always" has allowed so far in this process, as the question named it. */
  get allowed(): string[] {
    return [...this.#tools, ...[...this.#subcommands].map((k) => `${k} …`), ...this.#exact];
  }

  /** Allows what `rules` name, as the settings' allow rules do (ask mode only), until the function returned is called. */
  allowForTurn(rules: readonly PermissionRule[]): () => void {
    const before = this.#forTurn;
    this.#forTurn = [...before, ...rules.filter((rule) => rule.kind === "allow")];
    return () => {
      this.#forTurn = before;
    };
  }

  /** What to do with a call, checked once (tools/index.ts `checkCall`). */
  async decide(call: ToolCall | InvalidCall, cwd: string, signal?: AbortSignal): Promise<Decision> {
    const name = call.name;
    const run: Decision = { action: "run", call };
    const effect = effectOf(call, cwd);
    // Input the tool will refuse anyway runs nothing: let the tool say what is wrong with it.
    if (!isValidCall(call)) return run;
    const target = ruleTarget(call, effect, cwd);
    const places = { cwd, home: this.env.HOME || homedir() };
    const denied = denying(this.rules, target, places);
    if (denied) return { action: "refuse", content: `Not run: the user's permission rule ${denied.text} (in ${denied.source}) denies it.` };
    if (this.mode === "auto" || !effect || effect.kind === "read") return run;
    const rules = this.#forTurn.length > 0 ? [...this.rules, ...this.#forTurn] : this.rules;
    if (effect.kind === "write") {
      if (this.mode === "read-only") return { action: "refuse", content: readOnlyRefusal(effect) };
      if (this.#tools.has(name) || allowsCall(rules, target, places)) return run;
      const proposed = await proposal(call, cwd);
      const request: ApprovalRequest = { tool: name, effect, ...(proposed ? { proposed } : {}), always: [name], save: savedRules({ tool: name }) };
      this.#offered.set(request, { tool: name });
      return { action: "ask", request };
    }

    if (effect.server) return this.#serverCall(call, effect);
    const { command } = effect;
    const judged = judge(command);
    const readOnly = judged !== undefined && judged.commands.length > 0 && judged.readOnly.every(Boolean);
    if (this.mode === "read-only" && !readOnly) return { action: "refuse", content: readOnlyRefusal(effect, judged === undefined) };
    const allowed = (part: SimpleCommand, i: number) => judged!.readOnly[i] || this.#subcommands.has(subcommandKey(part) ?? "") || allowsPart(rules, part);
    const covered = readOnly || (this.mode === "ask" && judged !== undefined && (this.#exact.has(command) || allowsCommand(rules, command) || judged.commands.every(allowed)));
    let note: string | undefined;
    if (covered && judged) {
      // It runs without the person seeing it: git's configured programs go off.
      const guarded = await guardGit(command, judged, cwd, this.env, signal);
      if ("command" in guarded) return { action: "run", call: guarded.command === command ? call : withCommand(call, command, guarded.command) };
      if (this.mode === "read-only") return { action: "refuse", content: `${readOnlyRefusal(effect, false)} This command was refused because ${guarded.ask}.` };
      note = guarded.ask;
    }
    const scope = alwaysScope(command, judged);
    const request: ApprovalRequest = { tool: name, effect, ...(scope ? { always: describeScope(scope), save: savedRules(scope) } : {}), ...(note ? { note } : {}) };
    if (scope) this.#offered.set(request, scope);
    return { action: "ask", request };
  }

  /** An MCP server's tool: asked unless the person allowed it ("always"); refused in read-only, whatever the server says of it. */
  #serverCall(call: ToolCall, effect: ActingEffect & { kind: "exec" }): Decision {
    if (this.mode === "read-only") return { action: "refuse", content: readOnlyRefusal(effect) };
    if (this.#tools.has(call.name)) return { action: "run", call };
    const note = effect.server?.readOnlyHint ? "the server says this tool only reads (its own word, not checked)" : undefined;
    const request: ApprovalRequest = { tool: call.name, effect, always: [call.name], ...(note ? { note } : {}) };
    this.#offered.set(request, { tool: call.name });
    return { action: "ask", request };
  }

  /** Whether a call runs without asking in this mode: its effect is `read`, or it is a command the read-only rules pass. */
  static readOnly(effect: CallEffect): boolean {
    return effect.kind === "read" || (effect.kind === "exec" && !effect.server && isReadOnlyCommand(effect.command));
  }

  /**
   * The person answered "always, and save": allowed until awl exits, and the
   * request's rules written to their settings.json for the sessions after.
   * Returns the line that says where they went, or why they could not.
   */
  saveAlways(request: ApprovalRequest): string {
    this.allowAlways(request);
    const texts = request.save ?? [];
    const file = personSettingsFile(this.env);
    try {
      saveAllowRules(file, texts);
    } catch (error) {
      if (!(error instanceof UserError) && !(error instanceof Error && "code" in error)) throw error;
      return `Not saved (${error.message}): allowed until awl exits.`;
    }
    for (const text of texts) {
      const rule = parseRule(text, "allow", file);
      if (!("problem" in rule) && !this.rules.some((r) => r.kind === "allow" && r.text === rule.text)) this.rules.push(rule);
    }
    return `Saved to ${file}: ${texts.join(", ")}`;
  }

  /** The person answered "always" to this request. */
  allowAlways(request: ApprovalRequest): void {
    const scope = this.#offered.get(request);
    if (scope === undefined) return;
    if ("tool" in scope) this.#tools.add(scope.tool);
    else if (scope.kind === "exact") this.#exact.add(scope.command);
    else for (const key of scope.keys) this.#subcommands.add(key);
  }
}

/** What the rules are checked against: the tool, and the command or the file (absolute) the call names. */
function ruleTarget(call: ToolCall, effect: CallEffect | undefined, cwd: string): RuleTarget {
  const path = toClaudeInput(call.name, call.input as Record<string, unknown>, cwd).file_path;
  return { tool: call.name, ...(effect?.kind === "exec" ? { command: effect.command } : {}), ...(typeof path === "string" ? { path } : {}) };
}

/** The result the model reads when the person says no. */
export function declined(reason?: string): string {
  const why = reason?.trim();
  return `Not run: the user declined this tool call.${why ? ` Their reason: ${why}` : ""}`;
}

/** The result the model reads when read-only mode refuses a call. */
export function readOnlyRefusal(effect: ActingEffect, unparseable = false): string {
  if (effect.kind === "exec" && effect.server) return `Not run: awl is in read-only mode, which refuses MCP servers' tools (${effect.server.name} ${effect.server.tool}).`;
  const what = effect.kind === "exec" ? "commands that may change files" : "tools that change files";
  const commands = READ_ONLY_PROGRAMS.map((p) => (p === "git" ? "git status/diff/log/show" : p)).join(", ");
  const detail = effect.kind === "exec" ? ` Only these run: ${commands}, in any combination, without redirecting output to a file or putting a job in the background (&)${unparseable ? "; this command could not be parsed" : ""}.` : "";
  return `Not run: awl is in read-only mode, which refuses ${what}.${detail} Tools that only read work as usual.`;
}

/** The result the model reads when no one can be asked. */
export const NOBODY_TO_ASK = "Not run: this tool call needs the user's approval and awl cannot ask for it here.";

/** The call with its command replaced by the guarded form (a string where a string was: still valid). */
function withCommand(call: ToolCall, command: string, guarded: string): ToolCall {
  const input = call.input as Record<string, unknown>;
  return { ...call, input: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v === command ? guarded : v])) };
}
