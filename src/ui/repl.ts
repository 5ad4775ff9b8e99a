// The interactive loop: read a line, run a slash command or a turn, repeat.
// Ctrl+C during a turn aborts it; at an empty prompt (or Ctrl+D) it quits.

import type { Agent } from "../agent/agent";
import { UserError } from "../errors";
import type { Colors } from "./colors";
import { isCommand, runCommand } from "./commands";
import { readLine, watchInterrupt } from "./input";
import { TurnRenderer } from "./render";

type Out = NodeJS.WriteStream;

export async function runRepl(agent: Agent, c: Colors, out: Out = process.stdout): Promise<void> {
  const history = agent.conversation.messages
    .filter((m) => m.role === "user")
    .flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));

  for (;;) {
    const input = await readLine({ prompt: `${c.bold(c.green("›"))} `, history });
    if (input.kind === "quit") return;
    const text = input.text;
    if (!text.trim()) continue;

    if (isCommand(text)) {
      const result = runCommand(text, agent, c);
      if (result === "quit") return;
      out.write(`${result.output}\n`);
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
