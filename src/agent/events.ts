import type { CallEffect, ToolOutput } from "../tools/tool";
import type { BudgetStop } from "./session-cost";
import type { StreamEvent, Usage } from "../providers/provider";
import type { CustomEntry, CustomMessageEntry } from "../session";

/** What a turn reports to whoever shows it (terminal renderer, print mode). */
export type AgentEvent =
  | StreamEvent
  | { type: "requestStart"; provider: string; model: string }
  | { type: "toolStart"; id: string; name: string; summary: string }
  /** A running tool's output so far, as it arrives (bash): its last few KB, the keys scrubbed. Only for watching: toolEnd has the result. */
  | { type: "toolOutput"; id: string; name: string; tail: string }
  /** `effect`: what the call did, as its tool judged it (undefined: the tool refused it unrun). */
  | { type: "toolEnd"; id: string; name: string; output: ToolOutput; effect?: CallEffect["kind"] }
  /** A compaction begins: the summary request is on its way. */
  | { type: "compacting"; reason: "auto" | "overflow" | "manual" }
  /** The compaction entry is on disk; the conversation was rebuilt from it. */
  | { type: "compacted"; n: number; tokensBefore: number; tokensAfter: number; window: number }
  /** Compaction could not make the context smaller (nothing before the current turn, nothing to cut). */
  | { type: "compactSkipped"; reason: string }
  /** Entries extensions wrote, now in the log (written before a request and as the turn ends). */
  | { type: "extensionEntries"; entries: (CustomEntry | CustomMessageEntry)[] }
  /** What a `task` call's child agent (`id`: the call) is doing: its own events, as its turn reports them. */
  | { type: "subagent"; id: string; name: string; event: AgentEvent };

/** How full the model's context is: the next request's estimated tokens, and the window. */
export interface ContextMeter {
  tokens: number;
  window: number;
}

export interface TurnResult {
  /** The last response's stop reason; "error" covers failures and interruptions. */
  stopReason: "stop" | "length" | "toolUse" | "error";
  aborted: boolean;
  errorMessage?: string;
  /** Tokens of every request in this turn (summary requests included), summed. */
  usage: Usage;
  /** The context after the turn. */
  context: ContextMeter;
  /** Text of the final assistant message (what print mode prints). */
  finalText: string;
  /** The effort the turn ran at, when one was chosen. */
  effort?: string;
  /** Ended by TurnLimits.maxTurns, before the request its last tool results were for. */
  maxTurnsReached?: true;
  /** Ended by TurnLimits.maxCost, before a request whose worst case would have passed it. */
  maxCostReached?: BudgetStop;
  /** The effort cannot go to the model: known before the request, or learnt from the API's refusal of it (errorMessage says why). */
  effortRefused?: true;
  /** The prompt was never written or sent: a UserPromptSubmit hook refused it (errorMessage has the hook's words), or a Markdown command's `!`cmd`` parts were interrupted. */
  promptBlocked?: true;
}

/** For a call that never started: an abort (Ctrl+C, Esc, a signal) came first. */
export const INTERRUPTED_NOT_RUN = "Interrupted: this tool call was not run.";
export const INTERRUPTED_AFTER_START = "Interrupted after it started: it may have changed files.";
/** The result of a call an abort stopped after it started, with what it had output by then. */
export function interruptedAfterStart(output: string): string {
  return `${INTERRUPTED_AFTER_START} Its output so far:\n${output}`;
}
/** For a call whose result never reached the log (awl was stopped, or crashed): awl cannot know whether it ran. */
export const RESULT_NOT_RECORDED = "awl stopped before this tool call's result was recorded: it may or may not have run.";
