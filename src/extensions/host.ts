// What stands behind the API extensions are given (api.ts): what they
// registered, the entries they wrote, held until the log can take them, and
// their handlers run with a time limit (handlers.ts), which the agent meets
// through seam.ts. Every failure is named once, and the session goes on.
import type { AgentSeam } from "./seam";
import { customText, type CustomEntry, type CustomFields, type CustomMessageEntry, type CustomMessageFields, type SessionManager } from "../session";
import type { Tool } from "../tools";
import type { Awl, EntryRenderer, EventName, ExtensionCommand, ExtensionTool, Handlers } from "./api";
import { EVENTS, EventHandlers, type Registered } from "./handlers";
import { FoldedState, type Fold } from "./state";
import { extensionTool } from "./tool";

/** How long a handler may take (ms) unless AWL_HANDLER_TIMEOUT says otherwise. */
const HANDLER_MS = 10_000;

/** One extension's registrations, kept apart until its module has loaded: one that fails adds nothing. */
export interface Staged {
  origin: string;
  tools: Tool[];
  commands: ExtensionCommand[];
  renderers: { customType: string; render: EntryRenderer }[];
  handlers: { event: EventName; handler: Handlers[EventName] }[];
  /** Closed once loading ends, whichever way: a module that goes on calling the API after that is ignored. */
  open: boolean;
}

/** What one module came to, for `awl extensions`: what it registered, or why it is not loaded. */
export interface ModuleReport {
  origin: string;
  tools: string[];
  commands: string[];
  /** The entry types it shows. */
  renderers: string[];
  handlers: string[];
  failed?: string;
}

export class ExtensionHost {
  readonly tools: Tool[] = [];
  /** Every module tried, in the order it was. */
  readonly modules: ModuleReport[] = [];
  readonly commands: { command: ExtensionCommand; origin: string }[] = [];
  readonly #handlers: EventHandlers;
  /** Each entry type's renderer: the first registered for it. */
  readonly #renderers = new Map<string, { origin: string; render: EntryRenderer }>();
  /** Entries written before the session file exists or while a tool call runs: written at the next safe point. */
  #held: Held[] = [];
  #session: SessionManager | undefined;
  /** Failures already named: each once. */
  readonly #named = new Set<string>();

  constructor(
    /** Says one failure in one line (stderr, or the REPL's notice). */
    readonly notify: (line: string) => void,
    /** Names no extension tool may take: the built-in tools'. */
    readonly taken: readonly string[],
    env: Record<string, string | undefined> = process.env,
  ) {
    const ms = Number(env.AWL_HANDLER_TIMEOUT);
    this.#handlers = new EventHandlers(Number.isFinite(ms) && ms > 0 ? ms : HANDLER_MS, (line) => this.failed(line));
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
      registerRenderer: (customType, render) => {
        if (!customType || typeof customType !== "string") throw new Error("registerRenderer needs a customType");
        if (typeof render !== "function") throw new Error(`registerRenderer: ${customType} needs a render function`);
        if (live()) staged.renderers.push({ customType, render });
      },
      on: (event, handler) => {
        if (!EVENTS.includes(event)) throw new Error(`on: "${String(event).slice(0, 80)}" is not an event (${EVENTS.join(", ")})`);
        if (typeof handler !== "function") throw new Error(`on: the handler of ${event} is not a function`);
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
    const shows: string[] = [];
    for (const { customType, render } of staged.renderers) {
      const earlier = this.#renderers.get(customType);
      if (earlier) this.failed(`${staged.origin}: the renderer of ${customType} entries is not added: ${earlier.origin === staged.origin ? "it registered one already" : "another extension's shows them"}`);
      else {
        this.#renderers.set(customType, { origin: staged.origin, render });
        shows.push(customType);
      }
    }
    this.modules.push({ origin: staged.origin, tools: kept, commands: staged.commands.map((c) => c.name), renderers: shows, handlers: staged.handlers.map((h) => h.event) });
    for (const command of staged.commands) this.commands.push({ command, origin: staged.origin });
    for (const { event, handler } of staged.handlers) this.#handlers.add({ origin: staged.origin, event, handler } as Registered);
  }

  /**
   * An entry's lines as its extension's renderer gives them (plain text, not
   * yet safe to show); undefined when no renderer shows its type, or the one
   * that does threw or returned no text (named once: the entry is shown as
   * it would be without the extension).
   */
  renderEntry(entry: CustomEntry | CustomMessageEntry): string[] | undefined {
    const renderer = this.#renderers.get(entry.customType);
    if (!renderer) return undefined;
    try {
      const given = entry.type === "custom" ? { kind: "custom" as const, customType: entry.customType, data: entry.data } : { kind: "custom_message" as const, customType: entry.customType, content: customText(entry) };
      const lines: unknown = renderer.render(given);
      const list = typeof lines === "string" ? lines.split("\n") : lines;
      if (!Array.isArray(list) || !list.every((line) => typeof line === "string")) throw new Error("it returned no text (a string, or an array of strings)");
      return list;
    } catch (error) {
      this.failed(`${renderer.origin}: the renderer of ${entry.customType} entries failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      return undefined;
    }
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

  /** Runs an extension's command; one that throws is named, and the session goes on. What it wrote is written once it returns (the REPL flushes it), or with the file of a new session. */
  async runCommand(entry: { command: ExtensionCommand; origin: string }, args: string): Promise<void> {
    try {
      await entry.command.run(args);
    } catch (error) {
      this.failed(`${entry.origin}: /${entry.command.name} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }
  }

  /** A module that is not loaded: named once, and kept for `awl extensions`. */
  notLoaded(origin: string, why: string): void {
    this.modules.push({ origin, tools: [], commands: [], renderers: [], handlers: [], failed: why });
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

  /** Writes what extensions held, when the session's file exists; the entries it wrote. */
  flush(): (CustomEntry | CustomMessageEntry)[] {
    const session = this.#session;
    if (!session?.onDisk || this.#held.length === 0) return [];
    const held = this.#held;
    this.#held = [];
    return held.map((h) => (h.kind === "custom" ? session.appendCustom(h.fields) : session.appendCustomMessage(h.fields)));
  }

  /** What the agent's turn asks of the extensions: held entries written before each request (after the tool results) and as it ends, and the handlers at each of its events. */
  seam(): AgentSeam {
    return this.#handlers.seam(() => this.flush());
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
