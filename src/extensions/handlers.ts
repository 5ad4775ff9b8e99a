// The extensions' handlers of the session's events (docs/extensions.md), run
// in the order the modules were loaded, each with a time limit, as the seam
// the agent meets (seam.ts). A handler that may change what it is given hands
// its change to the next one. Only a handler before a tool call fails closed:
// one that throws or passes its limit refuses the call. Any other that fails
// is named once, and the event goes on as if it had answered nothing.
import type { EventName, Handlers } from "./api";
import type { AgentSeam, CallVerdict } from "./seam";
import { isObject } from "../json";

/** One handler as a module registered it. */
export type Registered = { [E in EventName]: { origin: string; event: E; handler: Handlers[E] } }[EventName];

/** How a failure names the moment: "its handler before a tool call failed: …". */
const WHEN: Record<EventName, string> = {
  session_start: "as the session started",
  before_prompt: "before a prompt",
  before_tool_call: "before a tool call",
  after_tool_call: "after a tool call",
  before_request: "before a request",
  turn_end: "at a turn's end",
  before_compaction: "before a compaction",
  after_move: "after a move in the session",
};

/** The events `on` takes. */
export const EVENTS: readonly string[] = Object.keys(WHEN);

type Outcome = { kind: "done"; value: unknown } | { kind: "failed"; why: string };

/** What a handler's answer says, read without trusting its shape: a string field, when there is one. */
function field(value: unknown, name: string): string | undefined {
  const v = isObject(value) ? value[name] : undefined;
  return typeof v === "string" ? v : undefined;
}

export class EventHandlers {
  readonly #all: Registered[] = [];

  constructor(
    /** How long a handler may take (ms). */
    readonly ms: number,
    /** Names a failure, once. */
    readonly failed: (line: string) => void,
  ) {}

  add(registered: Registered): void {
    this.#all.push(registered);
  }

  /** The seam the agent is given: `flush` writes what extensions held. */
  seam(flush: AgentSeam["flush"]): AgentSeam {
    return {
      flush,
      sessionStart: (event, signal) => this.#watch("session_start", event, signal),
      beforePrompt: async (text, signal) => {
        for (const { origin, handler } of this.#of("before_prompt")) {
          const value = await this.#settled("before_prompt", origin, () => handler({ text }), signal);
          const refuse = field(value, "refuse");
          if (refuse !== undefined) return { refused: `the ${origin} extension refused this prompt: ${refuse}` };
          text = field(value, "text") ?? text;
        }
        return { text };
      },
      beforeCall: (call, signal) => this.#beforeCall(call, signal),
      afterCall: async (event, signal) => {
        let changed: string | undefined;
        for (const { origin, handler } of this.#of("after_tool_call")) {
          const value = await this.#settled("after_tool_call", origin, () => handler({ ...event, content: changed ?? event.content }), signal);
          changed = field(value, "content") ?? changed;
        }
        return changed;
      },
      beforeRequest: (event, signal) => this.#watch("before_request", event, signal),
      turnEnd: (event, signal) => this.#watch("turn_end", event, signal),
      beforeCompaction: async (event, signal) => {
        for (const { origin, handler } of this.#of("before_compaction")) {
          const refuse = field(await this.#settled("before_compaction", origin, () => handler(event), signal), "refuse");
          if (refuse !== undefined) return `the ${origin} extension refused it: ${refuse}`;
        }
        return undefined;
      },
      afterMove: (event, signal) => this.#watch("after_move", event, signal),
    };
  }

  #of<E extends EventName>(event: E): { origin: string; handler: Handlers[E] }[] {
    return this.#all.filter((r) => r.event === event) as unknown as { origin: string; handler: Handlers[E] }[];
  }

  /** Runs the handlers of an event that only watch. */
  async #watch<E extends "session_start" | "before_request" | "turn_end" | "after_move">(event: E, given: Parameters<Handlers[E]>[0], signal: AbortSignal): Promise<void> {
    for (const { origin, handler } of this.#of(event)) await this.#settled(event, origin, () => (handler as (e: typeof given) => unknown)(given), signal);
  }

  /** A handler's answer; undefined when it failed, named once. */
  async #settled(event: EventName, origin: string, run: () => unknown, signal: AbortSignal): Promise<unknown> {
    // A turn stopped before this ran (turn_end after Esc) does not stop it: it is told of the stop, and its own failure is its own.
    const stoppedBefore = signal.aborted;
    const outcome = await this.#run(run, signal);
    if (outcome.kind === "done") return outcome.value;
    // Stopped with the turn while it ran (Esc, Ctrl+C): the person's doing, not the extension's failure.
    if (stoppedBefore || !signal.aborted) this.failed(`${origin}: its handler ${WHEN[event]} ${outcome.why}`);
    return undefined;
  }

  /** Each handler before the call, given the input as the one before it left it: the first refusal, one that fails, or the input changed. */
  async #beforeCall(call: { name: string; input: unknown }, signal: AbortSignal): Promise<CallVerdict> {
    let input = call.input;
    const by: string[] = [];
    for (const { origin, handler } of this.#of("before_tool_call")) {
      const outcome = await this.#run(() => handler({ name: call.name, input }), signal);
      if (outcome.kind === "failed") {
        this.failed(`${origin}: its handler ${WHEN.before_tool_call} ${outcome.why}`);
        return { refuse: `refused: the ${origin} extension's handler before this call ${outcome.why}, so the call was not run` };
      }
      const refuse = field(outcome.value, "refuse");
      if (refuse !== undefined) return { refuse };
      const changed = isObject(outcome.value) ? outcome.value.input : undefined;
      if (changed === undefined) continue;
      if (!isObject(changed)) {
        return { refuse: `refused: the ${origin} extension changed this call's input to something that is not a JSON object, so the call was not run` };
      }
      input = changed;
      by.push(origin);
    }
    return by.length > 0 ? { input: input as Record<string, unknown>, by } : undefined;
  }

  /** A handler's result, or how it failed: it threw, or passed the time limit (or the turn was stopped while it ran). */
  async #run(handler: () => unknown, signal: AbortSignal): Promise<Outcome> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = () => {};
    const limit = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: "failed", why: `did not finish in ${this.ms / 1000} s` }), this.ms);
      stopped = () => resolve({ kind: "failed", why: "was stopped" });
      signal.addEventListener("abort", stopped, { once: true });
    });
    // Settled either way, so a handler that fails after its time is up leaves no rejection unhandled.
    const done = Promise.resolve()
      .then(handler)
      .then(
        (value): Outcome => ({ kind: "done", value }),
        (error: unknown): Outcome => ({ kind: "failed", why: `failed: ${error instanceof Error ? error.message : String(error)}` }),
      );
    try {
      return await Promise.race([done, limit]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stopped); // a turn's signal outlives its many handler runs
    }
  }
}
