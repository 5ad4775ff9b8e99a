// `awl -p --json` against a small window: compactions stream as the lines the
// log gets, their summaries' usage counts in the result, and an overflow that
// compaction cannot fix ends the run as an error, said the same everywhere.
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import type { RecordedRequest, Reply } from "../support/server";
import { e2eFixture, type E2eFixture } from "./awl";
import { runJson } from "./json-stream";

let fx: E2eFixture;
afterEach(async () => {
  await fx.cleanup();
});

const isSummary = (r: RecordedRequest) => r.rawBody.includes("You compact a coding session");

/** Reads notes.txt on each prompt, then answers; writes a summary when asked. */
function readingModel(r: RecordedRequest): Reply {
  if (isSummary(r)) return { blocks: [{ type: "text", text: "## Goal\nRead notes.txt on every prompt." }], usage: { input: 100, output: 1000 } };
  const last = r.body.messages.at(-1);
  if (Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result")) return { blocks: [{ type: "text", text: "It is about a fox." }], usage: { input: 1, output: 1 } };
  return { blocks: [{ type: "toolUse", name: "read", input: { path: "notes.txt" } }], usage: { input: 1, output: 1 } };
}

test("compactions are streamed like every other line, and the summaries' usage is in the result", async () => {
  fx = await e2eFixture({ contextWindow: 5000, minCacheableTokens: 256 });
  fx.server.respond = readingModel;
  await Bun.write(join(fx.project, "notes.txt"), Array.from({ length: 40 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
  let compactions = 0;
  for (let t = 0; t < 15 && compactions === 0; t++) {
    const before = fx.server.requests.length;
    const { run, result, lines } = await runJson(fx, ["-p", `turn ${t}: read notes.txt`, ...(t ? ["--resume"] : [])], { env: { AWL_CONTEXT_WINDOW: "5000" } });
    expect(run.code).toBe(0);
    compactions = lines.filter((l) => JSON.parse(l).type === "compaction").length;
    const summaries = fx.server.requests.slice(before).filter(isSummary).length;
    expect(summaries).toBe(compactions);
    expect(result.usage.output).toBe(2 + 1000 * summaries);
  }
  expect(compactions).toBeGreaterThan(0);
}, 60_000);

test("an overflow that compaction cannot fix: exit 1, status error, the same error on stderr", async () => {
  fx = await e2eFixture({ contextWindow: 1000 });
  const { run, result } = await runJson(fx, ["-p", `summarise: ${"words and more words ".repeat(400)}`]);
  expect(run.code).toBe(1);
  expect(result.status).toBe("error");
  expect(result.error.message).toMatch(/too long|context|window/i);
});
