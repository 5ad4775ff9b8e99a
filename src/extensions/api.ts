// What an extension's module is given (docs/extensions.md): `export default
// (awl) => {…}` registers tools, slash commands, renderers and handlers for
// the session's events, and writes its own entries to the session. These
// types are the API; host.ts is what stands behind them. This file imports
// nothing: `awl extensions types` writes it, as it is, to awl.d.ts for an
// author's editor.

/** What a call does: only looks (`read`), or runs something (`exec`, in words the person is asked about). */
export type ExtensionEffect = { kind: "read" } | { kind: "exec"; command: string };

/** What an extension's tool returns: its text for the model, or that with whether it failed. */
export type ExtensionToolResult = string | { content: string; isError?: boolean };

export interface ExtensionTool {
  name: string;
  description: string;
  /** JSON Schema of the input (an object), as sent to the model. */
  inputSchema: Record<string, unknown>;
  /** What a call does, as the built-in tools declare it: awl asks about and checkpoints by this. None: `exec`, asked about in `ask` mode and refused in `read-only`. */
  effect?: (input: Record<string, unknown>) => ExtensionEffect;
  execute: (input: Record<string, unknown>, context: { cwd: string; signal: AbortSignal }) => ExtensionToolResult | Promise<ExtensionToolResult>;
}

export interface ExtensionCommand {
  /** Without the slash. */
  name: string;
  description: string;
  run: (args: string) => void | Promise<void>;
}

/** One of the session's entries an extension wrote, as a renderer is given it: a `custom` entry's data, or a `custom_message`'s words. */
export type RenderedEntry = { kind: "custom"; customType: string; data: unknown } | { kind: "custom_message"; customType: string; content: string };

/** How the REPL shows an extension's entries of one type: lines of plain text (awl makes them safe to show, and cuts them to fit). */
export type EntryRenderer = (entry: RenderedEntry) => string | string[];

/** The session awl has opened (or, after /new, /resume and /fork, opened next). */
export interface SessionStartEvent {
  sessionId: string;
  cwd: string;
  /** True when the session already held a conversation (resumed, forked). */
  resumed: boolean;
}

/** The prompt the person sent, before it is written to the session. */
export interface PromptEvent {
  text: string;
}

/** A tool call the model asked for, before it runs. */
export interface ToolCallEvent {
  name: string;
  input: unknown;
}

/** A tool call that ran, and its result as the model would read it. */
export interface ToolResultEvent {
  name: string;
  input: unknown;
  content: string;
  isError: boolean;
}

/** A request about to go to the model. */
export interface RequestEvent {
  provider: string;
  model: string;
  /** The messages it carries (the system prompt aside). */
  messages: number;
}

/** A turn that ended: why (`error` covers a refused prompt, a failure and Ctrl+C). */
export interface TurnEndEvent {
  stopReason: "stop" | "length" | "toolUse" | "error";
}

/** A compaction about to start: asked for by /compact (`manual`), or by awl as the context fills (`auto`). */
export interface CompactionEvent {
  trigger: "manual" | "auto";
}

/** The session moved to another path (or another session's): where it is now. State read through `awl.state` already follows it. */
export interface MoveEvent {
  kind: "rewind" | "tree" | "fork" | "resume";
  /** The entry the session is on now (null: before the first). */
  leafId: string | null;
}

/** Nothing to say: what a handler that only watches returns. */
type Nothing = void | undefined;

/** `refuse`: the prompt is neither written nor sent, and the person reads the words. `text`: the prompt written and sent instead. */
export type PromptResult = Nothing | { refuse: string } | { text: string };
/** `refuse`: the call is not run, and the model reads the words. `input`: the call runs with this input instead (checked by its tool again, asked about as changed, recorded before it runs). */
export type ToolCallResult = Nothing | { refuse: string } | { input: Record<string, unknown> };
/** `content`: what the model reads (and the session records) as the call's result instead. */
export type ToolResultResult = Nothing | { content: string };
/** `refuse`: the compaction does not happen; the words say why. */
export type CompactionResult = Nothing | { refuse: string };

/** A handler's answer, now or later. */
type Answer<R> = R | Promise<R>;

/**
 * The session's events an extension may handle, each with the time limit of
 * AWL_HANDLER_TIMEOUT (10 s). Only `before_tool_call` fails closed: one that
 * throws or passes its limit refuses the call. Any other that does is named
 * once, and the session goes on as if it returned nothing.
 */
export interface Handlers {
  /** A session is opened: as awl starts, and after /new, /resume and /fork. */
  session_start: (event: SessionStartEvent) => Answer<Nothing>;
  /** Before a prompt is written: may refuse it, or change its text. */
  before_prompt: (event: PromptEvent) => Answer<PromptResult>;
  /** Before a tool call runs (before the approval mode is asked): may refuse it, or change its input. */
  before_tool_call: (event: ToolCallEvent) => Answer<ToolCallResult>;
  /** After a tool call ran: may change the result's content the model reads. */
  after_tool_call: (event: ToolResultEvent) => Answer<ToolResultResult>;
  /** Before each request of a turn (not a compaction's summary request). */
  before_request: (event: RequestEvent) => Answer<Nothing>;
  /** As a turn ends, however it ended. */
  turn_end: (event: TurnEndEvent) => Answer<Nothing>;
  /** Before a compaction: may refuse it. */
  before_compaction: (event: CompactionEvent) => Answer<CompactionResult>;
  /** After /rewind (of the conversation), a /tree move, /fork or /resume. */
  after_move: (event: MoveEvent) => Answer<Nothing>;
}

export type EventName = keyof Handlers;

/** The object an extension's default export is called with. */
export interface Awl {
  registerTool(tool: ExtensionTool): void;
  registerCommand(command: ExtensionCommand): void;
  /** How the REPL shows this extension's `custom` and `custom_message` entries of `customType`, live and in a resumed transcript. */
  registerRenderer(customType: string, render: EntryRenderer): void;
  on<E extends EventName>(event: E, handler: Handlers[E]): void;
  /** Writes a `custom` entry of `customType` (never sent to the model): on the path, so going back takes it back. */
  appendEntry(customType: string, data: unknown): void;
  /** Writes a `custom_message` entry: `content` is sent with the next request, marked as this extension's. */
  sendMessage(customType: string, content: string, options?: { display?: boolean }): void;
  /** State kept the way going back undoes it: the fold of the active path's `custom` entries of `customType`. */
  state<S>(customType: string, initial: () => S, apply: (state: S, data: any) => S): { get(): S };
}
