// When a tool may act (`--approve ask|auto|read-only`, AWL_APPROVE, /approve):
// the policy the agent consults before each tool call. It decides; whoever
// shows the turn asks the person (ui/approval.ts in the REPL). Nothing here is
// written to the log: a refusal reaches it only as the call's tool result.
//
// - ask: read and read-only bash commands (read-only.ts) run; write, edit and
//   any other bash command are asked about, unless the person answered
//   "always" for that tool, or for every part of the command, its program with
//   its first argument, earlier in this process.
// - auto: everything runs, as it is.
// - read-only: write, edit and bash commands that are not read-only are
//   refused with a tool error the model can read.
//
// A read-only command that runs without being asked about runs with git's
// configured programs off (read-only.ts, guardGit).

import type { ApprovalMode } from "./approval-mode";
import { guardGit, judge, READ_ONLY_PROGRAMS, readsNetwork, writesFile } from "./read-only";
import type { SimpleCommand } from "./shell-words";

export { APPROVAL_MODES, describeMode, isApprovalMode, type ApprovalMode } from "./approval-mode";

/** The tools that can change something, and so may need asking about. */
type ActingTool = "bash" | "write" | "edit";
const ACTING = new Set<string>(["bash", "write", "edit"]);

/** Programs that run another command given as their arguments: "always" for them would allow anything. */
const RUNNERS = new Set([
  "sh", "bash", "zsh", "dash", "ksh", "fish", "env", "sudo", "doas", "su", "xargs", "eval", "exec", "command", "builtin",
  "nohup", "timeout", "nice", "time", "watch", "source", ".", "parallel", "setsid", "stdbuf", "chroot", "unshare",
]);

export interface ApprovalRequest {
  tool: ActingTool;
  /** The call's input, parsed (`command`; `path`, `content`; `path`, `oldText`, `newText`). */
  input: Record<string, unknown>;
  /** What answering "always" allows until awl exits: the tool's name, or each `program first-argument`; undefined when it cannot be offered. */
  always?: string[];
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
  readonly #commands = new Set<string>();

  constructor(
    mode: ApprovalMode,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {
    this.mode = mode;
  }

  /** What "always" has allowed so far in this process: tool names and `program first-argument` pairs. */
  get allowed(): string[] {
    return [...this.#tools, ...this.#commands];
  }

  /** What to do with a call of `name` whose input is `rawInput` (JSON, as the model sent it). */
  decide(name: string, rawInput: string, cwd: string): Decision {
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
      return { action: "ask", request: { tool, input, always: [tool] } };
    }

    const command = input.command;
    if (typeof command !== "string") return run;
    const judged = judge(command);
    const parts = judged?.commands ?? [];
    const readOnly = judged !== undefined && parts.length > 0 && judged.readOnly.every(Boolean);
    if (this.mode === "read-only" && !readOnly) return { action: "refuse", content: readOnlyRefusal("bash", judged === undefined) };
    const keys = judged && parts.length > 0 ? parts.map((part, i) => (judged.readOnly[i] ? null : alwaysKey(part))) : undefined;
    const coverable = keys?.every((k) => k !== undefined) ? (keys.filter((k) => k !== null) as string[]) : undefined;
    const covered = readOnly || (this.mode === "ask" && coverable !== undefined && coverable.every((k) => this.#commands.has(k)));
    if (covered && judged) {
      // It runs without the person seeing it: git's configured programs go off.
      const guarded = guardGit(command, judged, cwd, this.env);
      if (guarded !== undefined) return { action: "run", input: guarded === command ? rawInput : JSON.stringify({ ...input, command: guarded }) };
      if (this.mode === "read-only") return { action: "refuse", content: readOnlyRefusal("bash", false) };
    }
    return { action: "ask", request: { tool, input, ...(coverable?.length ? { always: [...new Set(coverable)] } : {}) } };
  }

  /** The person answered "always" to this request. */
  allowAlways(request: ApprovalRequest): void {
    for (const key of request.always ?? []) (request.tool === "bash" ? this.#commands : this.#tools).add(key);
  }
}

/**
 * The `program first-argument` an "always" answer covers for one part of a
 * command (`npm test`, `rm -rf`, `make`): undefined when the part cannot be
 * covered by one (an assignment before it, a redirection that writes a file
 * or reads the network, an expansion in its program or first argument, a
 * program that runs others).
 */
export function alwaysKey(part: SimpleCommand): string | undefined {
  const [program, first] = part.words;
  if (!program || part.assignments.length > 0 || writesFile(part) || readsNetwork(part)) return undefined;
  if (!program.literal || RUNNERS.has(program.text) || (first && !first.literal)) return undefined;
  if (/\s/.test(program.text) || (first && /[\n\r]/.test(first.text))) return undefined;
  return first ? `${program.text} ${first.text}` : program.text;
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
  const detail = tool === "bash" ? ` Only these run: ${commands}, in any combination, without redirecting output to a file${unparseable ? "; this command could not be parsed" : ""}.` : "";
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
