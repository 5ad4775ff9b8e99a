// The interactive loop: read a line, run a slash command or a turn, repeat.
// Ctrl+C (or Esc) during a turn aborts it; at an empty prompt (or Ctrl+D) it
// quits. A stop signal (cli/stop.ts) aborts a running turn like Ctrl+C and,
// once the turn has kept what it had, ends the loop.

import type { Agent } from "../agent/agent";
import { CompactionFailed } from "../agent/compaction";
import { UserError } from "../errors";
import type { Colors } from "./colors";
import { isCommand, runCommand } from "./commands";
import { readLine, watchInterrupt } from "./input";
import { meterText } from "./format";
import { TurnRenderer } from "./render";
import { safeText } from "./safe-text";

type Out = NodeJS.WriteStream;

export interface StopControl {
  /** Aborted when awl is told to stop (a signal): a running turn is aborted with it. */
  signal: AbortSignal;
  /** Runs work a stop must wait for (a turn, a compaction), so what it has is appended before awl exits. */
  hold<T>(work: () => Promise<T>): Promise<T>;
}

const NO_STOP: StopControl = { signal: new AbortController().signal, hold: (work) => work() };

export async function runRepl(agent: Agent, c: Colors, out: Out = process.stdout, stop: StopControl = NO_STOP): Promise<void> {
  const summary = agent.session.context().summary; // never offered as something the person typed
  const history = agent.conversation.messages
    .filter((m) => m.role === "user" && m !== summary)
    .flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));

  for (;;) {
    const input = await readLine({ prompt: `${c.bold(c.green("›"))} `, history });
    if (input.kind === "quit") return;
    const text = input.text;
    if (!text.trim()) continue;

    if (isCommand(text)) {
      const result = runCommand(text, agent, c);
      if (result === "quit") return;
      if ("compact" in result) await compactNow(agent, result.compact, c, out, stop);
      else out.write(`${result.output}\n`);
      if (stop.signal.aborted) return;
      continue;
    }

    const controller = interruptible(stop.signal);
    const stopWatching = watchInterrupt(() => controller.abort());
    const renderer = new TurnRenderer(out, c);
    try {
      const result = await stop.hold(() => agent.runTurn(text, controller.signal, (event) => renderer.handle(event)));
      renderer.finish(result);
    } catch (error) {
      renderer.abandon();
      if (!(error instanceof UserError)) throw error;
      out.write(`${c.red(safeText(error.message))}\n`);
    } finally {
      stopWatching();
      controller.dispose();
    }
    if (stop.signal.aborted) return;
  }
}

/** A controller for one turn: Ctrl+C or Esc aborts it (abort()), and so does a stop signal until dispose(). */
function interruptible(stop: AbortSignal): { abort(): void; signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (stop.aborted) abort();
  stop.addEventListener("abort", abort, { once: true });
  return { abort, signal: controller.signal, dispose: () => stop.removeEventListener("abort", abort) };
}

/** `/compact [focus]`: the summary request streams behind a spinner; Ctrl+C stops it and nothing is written. */
async function compactNow(agent: Agent, focus: string, c: Colors, out: Out, stop: StopControl): Promise<void> {
  const controller = interruptible(stop.signal);
  const stopWatching = watchInterrupt(() => controller.abort());
  const renderer = new TurnRenderer(out, c);
  try {
    const done = await stop.hold(() => agent.compact(controller.signal, (event) => renderer.handle(event), focus || undefined));
    renderer.abandon();
    if (done.compacted) out.write(`${c.dim(meterText(agent.meter()))}\n`);
  } catch (error) {
    renderer.abandon();
    if (!(error instanceof UserError)) throw error;
    out.write(`${error instanceof CompactionFailed && error.aborted ? c.yellow("Interrupted: nothing was compacted.") : c.red(safeText(error.message))}\n`);
  } finally {
    stopWatching();
    controller.dispose();
  }
}
