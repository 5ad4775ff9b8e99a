// What an extension's module is given (docs/extensions.md): `export default
// (awl) => {…}` registers tools, slash commands and handlers for the
// session's events, and writes its own entries to the session. These types
// are the API; host.ts is what stands behind them. This file imports nothing:
// `awl extensions types` writes it, as it is, to awl.d.ts for an author's editor.

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

/** A tool call as a handler is given it: a `refuse` (with words for the model) keeps it from running. */
export interface ToolCallEvent {
  name: string;
  input: unknown;
}

export type HandlerResult = void | undefined | { refuse: string };

/** The session's events an extension may handle. */
export interface Handlers {
  /** Before a tool call runs: one that throws or passes its time limit refuses the call. */
  before_tool_call: (event: ToolCallEvent) => HandlerResult | Promise<HandlerResult>;
}

export type EventName = keyof Handlers;

/** The object an extension's default export is called with. */
export interface Awl {
  registerTool(tool: ExtensionTool): void;
  registerCommand(command: ExtensionCommand): void;
  on<E extends EventName>(event: E, handler: Handlers[E]): void;
  /** Writes a `custom` entry of `customType` (never sent to the model): on the path, so going back takes it back. */
  appendEntry(customType: string, data: unknown): void;
  /** Writes a `custom_message` entry: `content` is sent with the next request, marked as this extension's. */
  sendMessage(customType: string, content: string, options?: { display?: boolean }): void;
  /** State kept the way going back undoes it: the fold of the active path's `custom` entries of `customType`. */
  state<S>(customType: string, initial: () => S, apply: (state: S, data: any) => S): { get(): S };
}
