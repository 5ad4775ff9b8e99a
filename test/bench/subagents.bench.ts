// Subagent figures, printed, not asserted (docs/subagents.md): the parent's
// prompt-cache share across a 10-request loop in a session's second turn
// whose first answer runs three children, against the test server's
// Anthropic cache. The children's traffic has its own system prompt and
// tools; the parent's prefix is untouched, so its requests keep reading it
// from the cache (bar: 90%).
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
    const child = (n: number) => taskCall(`look ${n}`, { calls: [["read", { path: "notes.txt" }], ["read", { path: "notes.txt" }]], answer: `child ${n} read the notes twice` });
    // Turn 1: one answer. Turn 2: the three children (or a read), then reads, then the answer: LOOP requests of the parent's.
    cache.respond = subagentModel([
      { blocks: [{ type: "text", text: "hello" }] },
      { blocks: children ? [child(1), child(2), child(3)] : [read] },
      ...Array.from({ length: LOOP - 2 }, () => ({ blocks: [read] })),
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
    // The second turn's answers: the branch's assistant messages after the first one.
    const usages = session.getBranch().flatMap((e) => (e.type === "message" && e.message.role === "assistant" && e.message.usage ? [e.message.usage] : [])).slice(1);
    const input = usages.reduce((n, u) => n + u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0), 0);
    const cached = usages.reduce((n, u) => n + (u.cacheRead ?? 0), 0);
    const what = children ? `whose first answer ran 3 children (${requests.length - parent.length} child requests)` : "without children (the floor: the same loop, a read for the children)";
    console.log(
      `second turn of ${parent.length} parent requests ${what}, ${ms.toFixed(0)} ms: ` +
        `${cached.toLocaleString("en-US")} of ${input.toLocaleString("en-US")} parent input tokens were cache reads (${((100 * cached) / input).toFixed(1)}%${children ? "; bar: 90%" : ""})`,
    );
    session.close();
  } finally {
    await cache.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await secondTurn(true);
await secondTurn(false);
