// Subagent figures, printed, not asserted (docs/subagents.md): the parent's
// prompt-cache share across a 10-request loop in a session's second turn
// whose first answer runs three children, against the test server's
// Anthropic cache. The children's traffic has its own system prompt and
// tools; the parent's prefix is untouched, so its requests keep reading it
// from the cache (bar: 90%).
//
// The turn is delegation as it is meant to be used: three children read the
// notes (twice each) and each returns a sentence; the parent then acts on
// them with short commands. The floor is the same turn without children (the
// parent reads the notes itself). Beside each share is its ceiling: every
// token of the previous request read back from the cache, since what a
// request adds (the last answer, the new results) cannot have been cached.
//
//   bun run bench subagents
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { SessionManager } from "../../src/session";
import { startTestServer } from "../support/server";
import { isChildRequest, subagentModel, taskCall } from "../support/subagent-model";

const MODEL = { provider: "anthropic", model: "claude-sonnet-4-5" };
const LOOP = 10;

/** The parent's cache-read share in a second turn of LOOP requests whose first answer runs three children (or, as the floor, reads the notes itself). */
async function secondTurn(children: boolean): Promise<void> {
  const cache = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), "awl-bench-subagents-"));
  process.env.AWL_SESSION_DIR = join(dir, "sessions");
  try {
    await Bun.write(join(dir, "notes.txt"), Array.from({ length: 60 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
    const read = { type: "toolUse" as const, name: "read", input: { path: "notes.txt" } };
    const child = (n: number) => taskCall(`look ${n}`, { calls: [["read", { path: "notes.txt" }], ["read", { path: "notes.txt" }]], answer: `child ${n} read the notes twice: 60 lines, each about a fox`, brief: true });
    const act = (i: number) => ({ type: "toolUse" as const, name: "bash", input: { command: i % 2 ? "wc -l notes.txt" : "grep -c fox notes.txt" } });
    // Turn 1: one answer. Turn 2: the three children (or the parent's own read), then short commands, then the answer: LOOP requests of the parent's.
    cache.respond = subagentModel([
      { blocks: [{ type: "text", text: "hello" }] },
      { blocks: children ? [child(1), child(2), child(3)] : [read] },
      ...Array.from({ length: LOOP - 2 }, (_, i) => ({ blocks: [act(i)] })),
      { blocks: [{ type: "text", text: "done" }] },
    ]);
    const session = SessionManager.init({ cwd: dir, ...MODEL });
    const agent = new Agent({ session, cwd: dir, model: MODEL, env: { ANTHROPIC_API_KEY: cache.anthropicKey, ANTHROPIC_BASE_URL: cache.anthropicUrl } });
    await agent.runTurn("hello", new AbortController().signal, () => {});
    const first = cache.requests.length;
    const started = performance.now();
    await agent.runTurn("look at the notes, then read them yourself", new AbortController().signal, () => {});
    const ms = performance.now() - started;
    const requests = cache.requests.slice(first);
    const parent = requests.filter((r) => !isChildRequest(r));
    // Each request's input, from the branch's assistant messages: the first is turn 1's, the rest the second turn's.
    const totals = session
      .getBranch()
      .flatMap((e) => (e.type === "message" && e.message.role === "assistant" && e.message.usage ? [e.message.usage] : []))
      .map((u) => ({ all: u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0), read: u.cacheRead ?? 0 }));
    const turn = totals.slice(1);
    const input = turn.reduce((n, t) => n + t.all, 0);
    const cached = turn.reduce((n, t) => n + t.read, 0);
    const ceiling = totals.slice(0, -1).reduce((n, t) => n + t.all, 0);
    const what = children ? `whose first answer ran 3 children (${requests.length - parent.length} child requests)` : "without children (the floor: the parent reads the notes itself, then the same commands)";
    console.log(
      `second turn of ${parent.length} parent requests ${what}, ${ms.toFixed(0)} ms: ` +
        `${cached.toLocaleString("en-US")} of ${input.toLocaleString("en-US")} parent input tokens were cache reads (${((100 * cached) / input).toFixed(1)}%${children ? "; bar: 90%" : ""}; ceiling ${((100 * ceiling) / input).toFixed(1)}%)`,
    );
    session.close();
  } finally {
    await cache.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await secondTurn(true);
await secondTurn(false);
