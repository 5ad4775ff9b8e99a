// When a tool may act (`--approve ask|auto|read-only`, AWL_APPROVE, /approve):
// the policy the agent consults before each tool call. It decides; whoever
// shows the turn asks the person (ui/session/approval.ts in the REPL). Nothing here is
// written to the log: a refusal reaches it only as the call's tool result.
//
// - ask: read and read-only bash commands (read-only.ts) run; write, edit and
//   any other bash command are asked about, unless the person answered
//   "always" for that tool, or for that command's scope (approval-scope.ts:
//   program + subcommand, or the exact command), earlier in this process.
// - auto: everything runs, as it is.
// - read-only: write, edit and bash commands that are not read-only are
//   refused with a tool error the model can read.
//
// A read-only command that runs without being asked about runs with git's
// configured programs off (git-guard.ts).

import type { ApprovalMode } from "./approval-mode";
import { alwaysScope, describeScope, subcommandKey, type AlwaysScope } from "./approval-scope";
import { guardGit } from "./git-guard";
import { judge, READ_ONLY_PROGRAMS } from "./read-only";
import type { SimpleCommand } from "./shell-words";

export { APPROVAL_MODES, describeMode, isApprovalMode, type ApprovalMode } from "./approval-mode";

/** The tools that can change something, and so may need asking about. */
type ActingTool = "bash" | "write" | "edit";
const ACTING = new Set<string>(["bash", "write", "edit"]);

export interface ApprovalRequest {
  tool: ActingTool;
  /** The call's input, parsed (`command`; `path`, `content`; `path`, `oldText`, `newText`). */
  input: Record<string, unknown>;
  /** What answering "always" allows until awl exits, as the person reads it: the tool's name, `git add …` (that subcommand, with any arguments), or only this exact command; undefined when it cannot be offered. */
  always?: string[];
  /** Why a command that would otherwise have run unasked is asked about. */
  note?: string;
}

export type ApprovalAnswer = { kind: "yes" } | { kind: "always" } | { kind: "no"; reason?: string } | { kind: "interrupted" };

/** Asks the person about one call; resolves "interrupted" when they stopped the turn instead (Esc, Ctrl+C, a signal). */
export type Ask = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

export type Decision =
  /** Run it, with this input (a read-only command may have been guarded). */
  | { action: "run"; input: string }
  | { action: "ask"; request: ApprovalRequest }
  /** Do not run it; this is the call's (error) result. */
  | { action: "refuse"; content: string };

export class Approvals {
  mode: ApprovalMode;
  readonly #tools = new Set<string>();
  /** Subcommand scopes (`git add`) and exact commands, each as allowed. */
  readonly #subcommands = new Set<string>();
  readonly #exact = new Set<string>();
  /** What each question's "always" would allow: the tool, or the command's scope. */
  readonly #offered = new WeakMap<ApprovalRequest, AlwaysScope | ActingTool>();

  constructor(
    mode: ApprovalMode,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.mode = mode;
  }

  /** What "always" has allowed so far in this process, as the question named it. */
  get allowed(): string[] {
    return [...this.#tools, ...[...this.#subcommands].map((k) => `${k} …`), ...this.#exact];
  }

  /** What to do with a call of `name` whose input is `rawInput` (JSON, as the model sent it). */
  async decide(name: string, rawInput: string, cwd: string): Promise<Decision> {
    const run: Decision = { action: "run", input: rawInput };
    if (this.mode === "auto" || !ACTING.has(name)) return run;
    const input = parseObject(rawInput);
    // Input the tool will refuse anyway runs nothing: let the tool say what is wrong with it.
    if (!input) return run;
    const tool = name as ActingTool;
    if (tool !== "bash") {
      if (typeof input.path !== "string") return run;
      if (this.mode === "read-only") return { action: "refuse", content: readOnlyRefusal(tool) };
      if (this.#tools.has(tool)) return run;
      const request: ApprovalRequest = { tool, input, always: [tool] };
      this.#offered.set(request, tool);
      return { action: "ask", request };
    }

    const command = input.command;
    if (typeof command !== "string") return run;
    const judged = judge(command);
    const readOnly = judged !== undefined && judged.commands.length > 0 && judged.readOnly.every(Boolean);
    if (this.mode === "read-only" && !readOnly) return { action: "refuse", content: readOnlyRefusal("bash", judged === undefined) };
    const allowed = (part: SimpleCommand, i: number) => judged!.readOnly[i] || this.#subcommands.has(subcommandKey(part) ?? "");
    const covered = readOnly || (this.mode === "ask" && judged !== undefined && (this.#exact.has(command) || judged.commands.every(allowed)));
    let note: string | undefined;
    if (covered && judged) {
      // It runs without the person seeing it: git's configured programs go off.
      const guarded = await guardGit(command, judged, cwd, this.env);
      if ("command" in guarded) return { action: "run", input: guarded.command === command ? rawInput : JSON.stringify({ ...input, command: guarded.command }) };
      if (this.mode === "read-only") return { action: "refuse", content: `${readOnlyRefusal("bash", false)} This command was refused because ${guarded.ask}.` };
      note = guarded.ask;
    }
    const scope = alwaysScope(command, judged);
    const request: ApprovalRequest = { tool, input, ...(scope ? { always: describeScope(scope) } : {}), ...(note ? { note } : {}) };
    if (scope) this.#offered.set(request, scope);
    return { action: "ask", request };
  }

  /** The person answered "always" to this request. */
  allowAlways(request: ApprovalRequest): void {
    const scope = this.#offered.get(request);
    if (scope === undefined) return;
    if (typeof scope === "string") this.#tools.add(scope);
    else if (scope.kind === "exact") this.#exact.add(scope.command);
    else for (const key of scope.keys) this.#subcommands.add(key);
  }
}

/** The result the model reads when the person says no. */
export function declined(reason?: string): string {
  const why = reason?.trim();
  return `Not run: the user declined this tool call.${why ? ` Their reason: ${why}` : ""}`;
}

/** The result the model reads when read-only mode refuses a call. */
export function readOnlyRefusal(tool: ActingTool, unparseable = false): string {
  const what = tool === "bash" ? "commands that may change files" : `${tool}`;
  const commands = READ_ONLY_PROGRAMS.map((p) => (p === "git" ? "git status/diff/log/show" : p)).join(", ");
  const detail = tool === "bash" ? ` Only these run: ${commands}, in any combination, without redirecting output to a file or putting a job in the background (&)${unparseable ? "; this command could not be parsed" : ""}.` : "";
  return `Not run: awl is in read-only mode, which refuses ${what}.${detail} The read tool works as usual.`;
}

/** The result the model reads when no one can be asked. */
export const NOBODY_TO_ASK = "Not run: this tool call needs the user's approval and awl cannot ask for it here.";

function parseObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.trim() === "" ? "{}" : raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
