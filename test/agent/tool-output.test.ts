// Issue 12, item 3: the agent passes a running tool's output on as it arrives
// (toolOutput events, between the call's toolStart and toolEnd), with the
// provider keys scrubbed, so the REPL can show it live. Real bash, a real
// session, the strict test server.
import { expect, test } from "bun:test";
import { Agent } from "../../src/agent/agent";
import type { AgentEvent } from "../../src/agent/events";
import { SessionManager } from "../../src/session";
import { useAgentFixture } from "./helpers";

const fx = useAgentFixture();

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };

test("toolOutput events carry the tail of a running command's output, keys scrubbed, before its toolEnd", async () => {
  const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env });
  const key = fx.server.anthropicKey;
  fx.server.reply(
    { blocks: [{ type: "toolUse", id: "b1", name: "bash", input: { command: `echo first; sleep 0.3; echo "key ${key}"; sleep 0.3; echo last` } }] },
    { blocks: [{ type: "text", text: "done" }] },
  );
  const events: AgentEvent[] = [];
  await agent.runTurn("run it", new AbortController().signal, (e) => events.push(e));
  const kinds = events.filter((e) => e.type.startsWith("tool")).map((e) => e.type);
  expect(kinds[0]).toBe("toolStart");
  expect(kinds.at(-1)).toBe("toolEnd");
  const outputs = events.flatMap((e) => (e.type === "toolOutput" ? [e] : []));
  expect(outputs.length).toBeGreaterThanOrEqual(3);
  expect(outputs.every((e) => e.id === "b1" && e.name === "bash")).toBe(true);
  expect(outputs[0]!.tail).toBe("first\n");
  expect(outputs.at(-1)!.tail).toBe("first\nkey [redacted ANTHROPIC_API_KEY]\nlast\n");
  expect(outputs.some((e) => e.tail.includes(key))).toBe(false);
});
