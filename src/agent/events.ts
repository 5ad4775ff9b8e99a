import type { ToolOutput } from "../tools/tool";
import type { StreamEvent, Usage } from "../providers/provider";

/** What a turn reports to whoever shows it (terminal renderer, print mode). */
export type AgentEvent =
  | StreamEvent
  | { type: "requestStart"; provider: string; model: string }
  | { type: "toolStart"; id: string; name: string; summary: string }
  | { type: "toolEnd"; id: string; name: string; output: ToolOutput };

export interface TurnResult {
  /** The last response's stop reason; "error" covers failures and interruptions. */
  stopReason: "stop" | "length" | "toolUse" | "error";
  aborted: boolean;
  errorMessage?: string;
  /** Tokens of every request in this turn, summed. */
  usage: Usage;
  /** Text of the final assistant message (what print mode prints). */
  finalText: string;
}

export const INTERRUPTED_NOT_RUN = "Interrupted: this tool call was not run.";
export const INTERRUPTED_BY_USER = "Interrupted by the user.";
