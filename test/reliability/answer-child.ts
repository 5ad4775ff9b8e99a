// A child for partials.test.ts: one turn of the real Agent on a session (new,
// or resumed from its file), against the test server the environment names.
// Each piece of answer text is printed the moment awl receives it, with a
// synchronous write, as `delta <JSON text>`: what the parent reads by a time
// awl had received by then. `request` says the request is about to go out.
//
//   bun test/reliability/answer-child.ts <session file | new:<cwd>> <prompt>
import { writeSync } from "node:fs";
import { Agent } from "../../src/agent/agent";
import { preloadSchemas, SessionManager } from "../../src/session";

const [target, prompt] = process.argv.slice(2) as [string, string];
const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const session = target.startsWith("new:") ? SessionManager.init({ cwd: target.slice(4), ...model }) : await SessionManager.open(target);
preloadSchemas();
const out = (line: string) => writeSync(1, `${line}\n`);
const agent = new Agent({ session, cwd: session.cwd, model, env: process.env });
out(`open ${session.sessionFile}`);
await agent.runTurn(prompt, new AbortController().signal, (event) => {
  if (event.type === "requestStart") out("request");
  else if (event.type === "delta" && event.index === 0) out(`delta ${JSON.stringify(event.text)}`);
});
session.close();
out("done");
