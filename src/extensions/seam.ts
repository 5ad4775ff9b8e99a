// Where the turn loop meets the extensions loaded: the agent is given this
// and knows nothing else of them (docs/extensions.md).

/** Asked before approvals about every call its tool would run: the words of a refusal, or undefined to go on. Never throws; a handler that fails refuses the call (the seam's to make so). */
export type BeforeCall = (call: { name: string; input: unknown }, signal: AbortSignal) => Promise<string | undefined>;

/** What the turn asks of the extensions loaded. */
export interface AgentSeam {
  /** Writes what extensions held (their entries wait for the file and for tool calls to end): before each request and as a turn ends; true when it wrote anything. */
  flush(): boolean;
  beforeCall: BeforeCall;
}
