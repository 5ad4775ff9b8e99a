// The subagents a turn's `task` calls run (docs/subagents.md), one row each
// under the output while they work: the call's task, the child's current
// step, how many tool calls it has made, and for how long it has run. Drawn
// with the status line (./status-line.ts); a row goes when its call ends.

import type { AgentEvent } from "../../agent/events";
import type { Colors } from "../render/colors";
import { fitWidth, oneLine } from "../render/format";
import { safeText } from "../render/safe-text";
import { seconds } from "./status-line";

interface Child {
  name: string;
  step: string;
  calls: number;
  since: number;
}

export class SubagentRows {
  readonly #children = new Map<string, Child>();

  constructor(private readonly now: () => number) {}

  /**
   * A child's event (`id`: its call): its row starts with its first, and
   * shows its latest step. Whether the row changed: a delta of its answer
   * changes nothing (the status line's tick redraws its time).
   */
  event(id: string, name: string, event: AgentEvent): boolean {
    let child = this.#children.get(id);
    const started = !child;
    if (!child) this.#children.set(id, (child = { name: safeText(name), step: "Starting…", calls: 0, since: this.now() }));
    const step = child.step;
    if (event.type === "requestStart") child.step = "Waiting for the model…";
    else if (event.type === "blockStart" && event.block.type === "thinking") child.step = "Thinking…";
    else if (event.type === "blockStart" && event.block.type === "text") child.step = "Answering…";
    else if (event.type === "toolStart") {
      child.calls++;
      child.step = `${oneLine(event.name, 30)} ${oneLine(event.summary, 60)}`;
    } else if (event.type === "compacting") child.step = "Compacting…";
    return started || event.type === "toolStart" || child.step !== step;
  }

  /** Its call ended: its row goes. Returns how many tool calls it made (undefined: no subagent ran for it). */
  end(id: string): number | undefined {
    const child = this.#children.get(id);
    this.#children.delete(id);
    return child?.calls;
  }

  get size(): number {
    return this.#children.size;
  }

  rows(c: Colors, width: number): string[] {
    return [...this.#children.values()].map((child) => {
      const calls = `${child.calls} tool call${child.calls === 1 ? "" : "s"}`;
      return c.dim(fitWidth(`  ⎿ ${child.name}: ${child.step} · ${calls} · ${seconds(this.now() - child.since)}`, width));
    });
  }
}
