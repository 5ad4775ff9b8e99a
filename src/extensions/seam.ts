// Where the turn loop meets the extensions loaded: the agent is given this
// and knows nothing else of them (docs/extensions.md). At every seam the
// extensions' handlers run first, then the hooks of the same moment, which
// see what the handlers changed. None of these throws: a handler that fails
// is the seam's to name, and only one before a tool call refuses the call.
import type { CustomEntry, CustomMessageEntry } from "../session";
import type { CompactionEvent, MoveEvent, RequestEvent, SessionStartEvent, ToolCallEvent, ToolResultEvent, TurnEndEvent } from "./api";

/** What the handlers before a call said: refuse it (the words for the model), or run it with another input (`by`: the extensions that changed it). */
export type CallVerdict = { refuse: string } | { input: Record<string, unknown>; by: string[] } | undefined;

/** Asked before approvals about every call its tool would run. A handler that fails refuses the call. */
export type BeforeCall = (call: ToolCallEvent, signal: AbortSignal) => Promise<CallVerdict>;

/** What the turn asks of the extensions loaded. */
export interface AgentSeam {
  /** Writes what extensions held (their entries wait for the file and for tool calls to end): before each request and as a turn ends; the entries it wrote. */
  flush(): (CustomEntry | CustomMessageEntry)[];
  sessionStart(event: SessionStartEvent, signal: AbortSignal): Promise<void>;
  /** The prompt to write: the text as handlers left it, or their refusal (words for the person, naming the extension). */
  beforePrompt(text: string, signal: AbortSignal): Promise<{ text: string } | { refused: string }>;
  beforeCall: BeforeCall;
  /** The result's content as handlers changed it; undefined when none did. */
  afterCall(event: ToolResultEvent, signal: AbortSignal): Promise<string | undefined>;
  beforeRequest(event: RequestEvent, signal: AbortSignal): Promise<void>;
  turnEnd(event: TurnEndEvent, signal: AbortSignal): Promise<void>;
  /** Why the compaction does not happen (naming the extension that refused it); undefined to go on. */
  beforeCompaction(event: CompactionEvent, signal: AbortSignal): Promise<string | undefined>;
  afterMove(event: MoveEvent, signal: AbortSignal): Promise<void>;
}

/** The handlers around one tool call: what a subagent's calls are put to (its parent's). */
export type CallHandlers = Pick<AgentSeam, "beforeCall" | "afterCall">;
