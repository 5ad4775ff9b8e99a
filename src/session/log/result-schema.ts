// The last line `awl -p --json` writes (docs/session-format.md, "The stream of
// awl -p --json"): how the run ended. It is no entry of the log, so it has its
// own schema beside the log's; build.ts publishes both as JSON Schema. Only
// build.ts and the tests load this at run time; awl imports its type alone.
import { type } from "../../ark";
import { StopReason, Usage } from "./schema";

export const ResultLine = type({
  type: "'result'",
  /** ok: the turn ended as the model chose (an answer cut at the output limit too); max_turns: --max-turns stopped it, max_cost: --max-cost did; both resumable. */
  status: "'ok' | 'error' | 'interrupted' | 'max_turns' | 'max_cost'",
  /** null when no session file was written (the run ended before its first entry). */
  sessionId: "string | null",
  exitCode: "number.integer >= 0",
  /** Every request of this run summed, compaction summaries included. */
  usage: Usage,
  /** The last answer's stop reason, when one came. */
  "stopReason?": StopReason,
  "error?": { message: "string" },
});

export type ResultLine = typeof ResultLine.infer;
