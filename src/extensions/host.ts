// What stands behind the API extensions are given (api.ts): what they
// registered, the entries they wrote, held until the log can take them, and
// their handlers run with a time limit. A handler before a tool call that
// throws or runs past its limit refuses the call (fail closed); every failure
// is named once, and the session goes on.
import type { AgentSeam } from "./seam";
import type { CustomFields, CustomMessageFields, SessionManager } from "../session";
import type { Tool } from "../tools";
import type { Awl, EventName, ExtensionCommand, ExtensionTool, Handlers, HandlerResult } from "./api";
import { FoldedState, type Fold } from "./state";
import { extensionTool } from "./tool";

/** How long a handler may take (ms) unless AWL_HANDLER_TIMEOUT says otherwise. */
const HANDLER_MS = 10_000;

/** One extension's registrations, kept apart until its module has loaded: one that fails adds nothing. */
export interface Staged {
  origin: string;
  tools: Tool[];
  commands: ExtensionCommand[];
  handlers: { event: EventName; handler: Handlers[EventName] }[];
  /** Closed once loading ends, whichever way: a module that goes on calling the API after that is ignored. */
  open: boolean;
}

/** What one module came to, for `awl extensions`: what it registered, or why it is not loaded. */
export interface ModuleReport {
  origin: string;
  tools: string[];
  commands: string[];
  handlers: string[];
  failed?: string;
}

export class ExtensionHost {
  readonly tools: Tool[] = [];
  /** Every module tried, in the order it was. */
  readonly modules: ModuleReport[] = [];
  readonly commands: { command: ExtensionCommand; origin: string }[] = [];
  readonly #handlers: { origin: string; before_tool_call: Handlers["before_tool_call"] }[] = [];
  /** Entries written before the session file exists or while a tool call runs: written at the next safe point. */
  #held: Held[] = [];
  #session: SessionManager | undefined;
  /** Failures already named: each once. */
  readonly #named = new Set<string>();
  readonly #handlerMs: number;

  constructor(
    /** Says one failure in one line (stderr, or the REPL's notice). */
    readonly notify: (line: string) => void,
    /** Names no extension tool may take: the built-in tools'. */
    readonly taken: readonly string[],
    env: Record<string, string | undefined> = process.env,
  ) {
    const ms = Number(env.AWL_HANDLER_TIMEOUT);
    this.#handlerMs = Number.isFinite(ms) && ms > 0 ? ms : HANDLER_MS;
  }

  /** The API one extension is given, writing into `staged`. */
  api(staged: Staged): Awl {
    const live = () => staged.open;
    return {
      registerTool: (tool) => {
        checkTool(tool); // thrown in the extension's own call: the module is named, and adds nothing
        if (live()) staged.tools.push(extensionTool(tool, staged.origin, (line) => this.failed(line)));
      },
      registerCommand: (command) => {
        if (!COMMAND_NAME.test(String(command?.name))) throw new Error(`registerCommand: the name "${String(command?.name).slice(0, 80)}" is not a lower-case word (letters, digits, _ or -), without the slash`);
        if (typeof command.run !== "function") throw new Error(`registerCommand: /${command.name} needs a run function`);
        if (live()) staged.commands.push(command);
      },
      on: (event, handler) => {
        if (live()) staged.handlers.push({ event, handler });
      },
      appendEntry: (customType, data) => {
        this.#held.push({ kind: "custom", fields: custom(customType, data) }); // checked in the extension's own call
      },
      sendMessage: (customType, content, options) => {
        this.#held.push({ kind: "custom_message", fields: customMessage(customType, content, options?.display ?? true) });
      },
      state: <S>(customType: string, initial: () => S, apply: Fold<S>["apply"]) => {
        let folded: FoldedState<S> | undefined;
        return {
          // The path's fold, and on it what is held yet (a tool called twice in one answer sees its first call's entry).
          get: () => {
            if (this.#session && folded?.source !== this.#session) folded = new FoldedState(this.#session, { customType, initial, apply });
            const held = this.#held.flatMap((h) => (h.kind === "custom" && h.fields.customType === customType ? [h.fields.data] : []));
            return held.reduce(apply, folded ? folded.get() : initial());
          },
        };
      },
    };
  }

  /** Keeps what a module registered, once it has loaded; a tool whose name is taken is refused and named. */
  commit(staged: Staged): void {
    staged.open = false;
    const kept: string[] = [];
    for (const tool of staged.tools) {
      const clash = this.taken.includes(tool.name) ? "a built-in tool's" : this.tools.some((t) => t.name === tool.name) ? "another extension's" : tool.name.startsWith("mcp__") ? "an MCP tool's" : undefined;
      if (clash) this.failed(`${staged.origin}: tool ${tool.name} is not added: the name is ${clash}`);
      else {
        this.tools.push(tool);
        kept.push(tool.name);
      }
    }
    this.modules.push({ origin: staged.origin, tools: kept, commands: staged.commands.map((c) => c.name), handlers: staged.handlers.map((h) => h.event) });
    for (const command of staged.commands) this.commands.push({ command, origin: staged.origin });
    for (const { event, handler } of staged.handlers) if (event === "before_tool_call") this.#handlers.push({ origin: staged.origin, before_tool_call: handler });
  }

  /** The commands to offer beside `builtin` (the REPL's own): one that takes a built-in's name, or an earlier extension's, is named once and left out. */
  commandsBeside(builtin: readonly string[]): { command: ExtensionCommand; origin: string }[] {
    const kept: { command: ExtensionCommand; origin: string }[] = [];
    for (const entry of this.commands) {
      const clash = builtin.includes(entry.command.name) ? "a built-in command's" : kept.some((k) => k.command.name === entry.command.name) ? "another extension's" : undefined;
      if (clash) this.failed(`${entry.origin}: command /${entry.command.name} is not added: the name is ${clash}`);
      else kept.push(entry);
    }
    return kept;
  }

  /** Runs an extension's command; one that throws is named, and the session goes on. What it wrote is written before the next request. */
  async runCommand(entry: { command: ExtensionCommand; origin: string }, args: string): Promise<void> {
    try {
      await entry.command.run(args);
    } catch (error) {
      this.failed(`${entry.origin}: /${entry.command.name} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }
  }

  /** A module that is not loaded: named once, and kept for `awl extensions`. */
  notLoaded(origin: string, why: string): void {
    this.modules.push({ origin, tools: [], commands: [], handlers: [], failed: why });
    this.failed(`extension ${origin} is not loaded: ${why}`);
  }

  /** Every failure named so far, in order. */
  failures(): string[] {
    return [...this.#named];
  }

  /** Names a failure, once. */
  failed(line: string): void {
    if (this.#named.has(line)) return;
    this.#named.add(line);
    this.notify(line);
  }

  /** The session entries go to from now on; what waited for one is written once its file exists. */
  bind(session: SessionManager): void {
    this.flush(); // what the session left had held is its own
    this.#session = session;
  }

  /** Writes what extensions held, when the session's file exists; true when it wrote anything. */
  flush(): boolean {
    const session = this.#session;
    if (!session?.onDisk || this.#held.length === 0) return false;
    const held = this.#held;
    this.#held = [];
    for (const h of held) {
      if (h.kind === "custom") session.appendCustom(h.fields);
      else session.appendCustomMessage(h.fields);
    }
    return true;
  }

  /** What the agent's turn asks of the extensions: held entries written before each request (after the tool results) and as it ends, and the handlers before each call. */
  seam(): AgentSeam {
    return { flush: () => this.flush(), beforeCall: (call, signal) => this.#beforeCall(call, signal) };
  }

  async #beforeCall(call: { name: string; input: unknown }, signal: AbortSignal): Promise<string | undefined> {
    for (const { origin, before_tool_call } of this.#handlers) {
      const outcome = await this.#run(() => before_tool_call({ name: call.name, input: call.input }), signal);
      if (outcome.kind === "failed") {
        this.failed(`${origin}: its handler before a tool call ${outcome.why}`);
        return `refused: the ${origin} extension's handler before this call ${outcome.why}, so the call was not run`;
      }
      const value = outcome.value as { refuse?: unknown } | undefined | null;
      if (typeof value?.refuse === "string") return value.refuse;
    }
    return undefined;
  }

  /** A handler's result, or how it failed: it threw, or passed the time limit (or the turn was stopped while it ran). */
  async #run(handler: () => HandlerResult | Promise<HandlerResult>, signal: AbortSignal): Promise<{ kind: "done"; value: HandlerResult } | { kind: "failed"; why: string }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<{ kind: "failed"; why: string }>((resolve) => {
      timer = setTimeout(() => resolve({ kind: "failed", why: `did not finish in ${this.#handlerMs / 1000} s` }), this.#handlerMs);
      signal.addEventListener("abort", () => resolve({ kind: "failed", why: "was stopped" }), { once: true });
    });
    // Settled either way, so a handler that fails after its time is up leaves no rejection unhandled.
    const done = Promise.resolve()
      .then(handler)
      .then(
        (value) => ({ kind: "done" as const, value }),
        (error: unknown) => ({ kind: "failed" as const, why: `failed: ${error instanceof Error ? error.message : String(error)}` }),
      );
    try {
      return await Promise.race([done, limit]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A slash command's name as the REPL reads it (lower case: it lower-cases what is typed). */
const COMMAND_NAME = /^[a-z][a-z0-9_-]*$/;

/** Every provider takes tool names of this form: a tool with another would fail every request. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function checkTool(tool: ExtensionTool): void {
  const name = String(tool?.name);
  if (!TOOL_NAME.test(name)) throw new Error(`registerTool: the name "${name.slice(0, 80)}" is not 1 to 64 letters, digits, _ or -`);
  if (typeof tool.description !== "string" || !tool.description) throw new Error(`registerTool: ${name} needs a description`);
  if (tool.inputSchema?.type !== "object") throw new Error(`registerTool: ${name}'s inputSchema must be a JSON Schema of type "object"`);
  if (typeof tool.execute !== "function") throw new Error(`registerTool: ${name} needs an execute function`);
}

/** An entry an extension wrote, not yet in the log. */
type Held = { kind: "custom"; fields: CustomFields } | { kind: "custom_message"; fields: CustomMessageFields };

function custom(customType: string, data: unknown): CustomFields {
  if (!customType) throw new Error("appendEntry needs a customType");
  // What the log keeps is JSON: a value that is not (a function, a cycle) fails here, in the extension's call.
  return { customType, data: JSON.parse(JSON.stringify(data ?? null)) };
}

function customMessage(customType: string, content: string, display: boolean): CustomMessageFields {
  if (!customType) throw new Error("sendMessage needs a customType");
  if (typeof content !== "string") throw new Error("sendMessage takes its content as a string");
  return { customType, content, display };
}
