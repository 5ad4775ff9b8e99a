// The interactive loop: read a line, run a slash command or a turn, repeat.
// Ctrl+C during a turn aborts it; at an empty prompt (or Ctrl+D) it quits.

import type { Agent } from "../agent/agent";
import { CompactionFailed } from "../agent/compaction";
import { UserError } from "../errors";
import type { Colors } from "./colors";
import { isCommand, runCommand } from "./commands";
import { readLine, watchInterrupt } from "./input";
import { meterText } from "./format";
import { TurnRenderer } from "./render";

type Out = NodeJS.WriteStream;

export async function runRepl(agent: Agent, c: Colors, out: Out = process.stdout): Promise<void> {
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
      if ("compact" in result) await compactNow(agent, result.compact, c, out);
      else out.write(`${result.output}\n`);
      continue;
    }

    const controller = new AbortController();
    const stopWatching = watchInterrupt(() => controller.abort());
    const renderer = new TurnRenderer(out, c);
    try {
      const result = await agent.runTurn(text, controller.signal, (event) => renderer.handle(event));
      renderer.finish(result);
    } catch (error) {
      renderer.abandon();
      if (!(error instanceof UserError)) throw error;
      out.write(`${c.red(error.message)}\n`);
    } finally {
      stopWatching();
    }
  }
}

/** `/compact [focus]`: the summary request streams behind a spinner; Ctrl+C stops it and nothing is written. */
async function compactNow(agent: Agent, focus: string, c: Colors, out: Out): Promise<void> {
  const controller = new AbortController();
  const stopWatching = watchInterrupt(() => controller.abort());
  const renderer = new TurnRenderer(out, c);
  try {
    const done = await agent.compact(controller.signal, (event) => renderer.handle(event), focus || undefined);
    renderer.abandon();
    if (done.compacted) out.write(`${c.dim(meterText(agent.meter()))}\n`);
  } catch (error) {
    renderer.abandon();
    if (!(error instanceof UserError)) throw error;
    out.write(`${error instanceof CompactionFailed && error.aborted ? c.yellow("Interrupted: nothing was compacted.") : c.red(error.message)}\n`);
  } finally {
    stopWatching();
  }
}
