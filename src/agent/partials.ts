// The answer in flight, on disk (docs/session-format.md, "partial"): while a
// conversation answer streams, what arrived of each text or thinking block is
// appended as a `partial` entry, at most once a second, and a timer writes
// what waits when no more arrives, so no text waits longer than a second. A
// kill then loses at most the last second of the answer instead of all of it.
// The end of a block does not force a write: the timer writes its last text
// within the second, and an answer whose finished message comes first (most
// short ones) needs no partial at all. Tool calls are not written: half of one
// is never run, and a whole one is in the finished message.
import { UserError } from "../errors";
import type { SessionManager } from "../session";
import type { StreamEvent } from "../providers/provider";

/** The longest any text that arrived waits before it is written. */
export const PARTIAL_INTERVAL_MS = 1000;

export class PartialWriter {
  readonly #session: SessionManager;
  readonly #intervalMs: number;
  #attempt: number;
  /** The blocks whose text is written, by index, and which field holds it. */
  readonly #fields = new Map<number, "text" | "thinking">();
  /** What arrived of each block since its last partial. */
  readonly #pending = new Map<number, string>();
  /** When the last partial was written; at first, when the first text arrived, so an answer whose text is done within a second writes none. */
  #lastWrite: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when a write failed: the finished message's own write says why, so partials just stop. */
  #failed = false;

  constructor(session: SessionManager, intervalMs = PARTIAL_INTERVAL_MS) {
    this.#session = session;
    this.#intervalMs = intervalMs;
    this.#attempt = session.nextAttempt();
  }

  /** Takes one event of the answer's stream, in order. */
  event(event: StreamEvent): void {
    switch (event.type) {
      case "blockStart":
        if (event.block.type === "text" || event.block.type === "thinking") this.#fields.set(event.index, event.block.type);
        return;
      case "delta":
        if (!this.#fields.has(event.index) || event.text === "") return;
        this.#pending.set(event.index, (this.#pending.get(event.index) ?? "") + event.text);
        this.#schedule();
        return;
      case "retry":
        // The next try answers afresh: what this one sent is not the answer.
        this.#pending.clear();
        this.#fields.clear();
        this.#attempt++;
        return;
      case "end":
        this.stop();
        return;
      default:
        return;
    }
  }

  /** The stream is over: the finished message (or the interrupted one) is written by the caller, so nothing more is. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending.clear();
  }

  /** Writes now when the last write is a second old, else once it is. */
  #schedule(): void {
    if (this.#timer !== undefined) return;
    const now = performance.now();
    const wait = (this.#lastWrite ??= now) + this.#intervalMs - now;
    if (wait <= 0) this.#writePending();
    else this.#timer = setTimeout(() => this.#writePending(), wait);
  }

  /** Writes what waits: a partial per block, in the blocks' order. */
  #writePending(): void {
    this.#timer = undefined;
    const pending = [...this.#pending].sort(([a], [b]) => a - b);
    this.#pending.clear();
    this.#lastWrite = performance.now();
    for (const [block, text] of pending) {
      const field = this.#fields.get(block);
      if (!field || this.#failed) continue;
      try {
        this.#session.appendPartial({ attempt: this.#attempt, block, [field]: text });
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        this.#failed = true;
      }
    }
  }
}
