// A subagent whose reads fill the model's window (docs/subagents.md): it
// compacts as a parent does, each compaction a `child` entry in the parent's
// log, and when its one turn alone no longer fits, that is its call's error
// result and the parent goes on. The strict test server enforces the window.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { SessionManager } from "../../src/session";
import { isChildRequest, subagentModel, taskCall } from "../support/subagent-model";
import { logLines, useAgentFixture } from "./helpers";

const fx = useAgentFixture({ contextWindow: 6000, minCacheableTokens: 256 });
const model = { provider: "anthropic", model: "claude-sonnet-4-5" };

test("a child whose reads fill the window compacts in the parent's log; when its turn alone cannot fit, its call fails and the parent goes on", async () => {
  fx.env.AWL_CONTEXT_WINDOW = "6000";
  writeFileSync(join(fx.project, "big.txt"), Array.from({ length: 120 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
  const script = subagentModel([
    { blocks: [taskCall("read it all", { calls: Array.from({ length: 8 }, () => ["read", { path: "big.txt" }] as [string, unknown]), answer: "read it", brief: true })] },
    { blocks: [{ type: "text", text: "the child ran out of room" }] },
  ]);
  // A summary request (the child's conversation with the instruction last) gets a summary.
  fx.server.respond = (request) => (JSON.stringify(request.body.messages.at(-1)).includes("summar") ? { blocks: [{ type: "text", text: "## Goal\nRead big.txt." }] } : script(request));
  const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env });
  const result = await agent.runTurn("read big.txt through a subagent", new AbortController().signal, () => {});

  expect(result.finalText).toBe("the child ran out of room");
  const lines = await logLines(agent.session.sessionFile);
  expect(lines.filter((l) => l.type === "compaction")).toEqual([]); // the parent's context was never compacted
  expect(lines.filter((l) => l.type === "child" && l.entry.type === "compaction").length).toBeGreaterThan(0);
  const parentRequests = fx.server.requests.filter((r) => !isChildRequest(r));
  const results = parentRequests.at(-1)!.body.messages.at(-1).content;
  expect(results[0]).toMatchObject({ type: "tool_result", is_error: true });
  expect(JSON.stringify(results[0].content)).toContain("The subagent failed");
  expect(JSON.stringify(results[0].content)).toContain("fills the model's context window");
});
