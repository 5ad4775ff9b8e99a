// awl sessions stats: tokens per model from every usage in the logs (answers,
// compaction summaries, titles), each kind apart, cost by the price table,
// unknown models in tokens only, a fork's copied lines counted once; the
// totals are the exact sums.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd } from "../../src/session/log/paths";
import { useE2eFixture } from "./awl";

const fx = useE2eFixture();
const DAY = 86_400_000;
const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString();

function write(id: string, lines: object[], header: object = {}): void {
  const dir = join(fx.sessions, encodeCwd(fx.project));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const created = (lines[0] as { timestamp: string }).timestamp;
  const head = { type: "session", version: 1, id, timestamp: created, cwd: fx.project, provider: "anthropic", model: "claude-sonnet-4-5", ...header };
  writeFileSync(join(dir, `${created.replace(/[:.]/g, "-")}_${id}.jsonl`), [head, ...lines].map((l) => JSON.stringify(l)).join("\n") + "\n", { mode: 0o600 });
}

const prompt = (id: string, parentId: string | null, when: string) => ({ type: "message", id, parentId, timestamp: when, provider: "anthropic", model: "claude-sonnet-4-5", message: { role: "user", content: [{ type: "text", text: `prompt ${id}` }] } });
const answer = (id: string, parentId: string, when: string, model: string, usage: object, provider = "anthropic") => ({
  type: "message", id, parentId, timestamp: when, message: { role: "assistant", content: [{ type: "text", text: "ok" }], provider, model, stopReason: "stop", usage },
});

test("stats adds every usage up per model, prices what it knows, and counts a fork's copied lines once", async () => {
  const parent = [
    prompt("p1", null, at(2)),
    answer("a1", "p1", at(2), "claude-sonnet-4-5", { input: 1000, output: 200, cacheRead: 5000, cacheWrite: 300 }),
    { type: "compaction", id: "c1", parentId: "a1", timestamp: at(2), n: 1, summary: "s", firstKeptEntryId: "p1", keptPrompts: [], cutToolResults: [], window: 200000, tokensBefore: 10, tokensAfter: 5, provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 400, output: 50 } },
    { type: "session_info", id: "t1", parentId: "c1", timestamp: at(2), title: "T", source: "auto", provider: "anthropic", model: "claude-haiku-4-5", usage: { input: 120, output: 8 } },
    prompt("p2", "c1", at(1)),
    answer("a2", "p2", at(1), "my-local-model", { input: 77, output: 11 }, "openai"),
  ];
  write("019a0000-0000-7000-8000-000000000001", parent);
  // A fork copied the parent's path up to a1, then went on: only its own answer counts.
  write("019b0000-0000-7000-8000-000000000002", [parent[0]!, parent[1]!, prompt("f1", "a1", at(1)), answer("f2", "f1", at(1), "claude-sonnet-4-5", { input: 10, output: 1 })], {
    forkedFrom: { session: "019a0000-0000-7000-8000-000000000001", entry: "a1" },
  });
  write("019c0000-0000-7000-8000-000000000003", [prompt("o1", null, at(60)), answer("o2", "o1", at(60), "claude-sonnet-4-5", { input: 999, output: 999 })]);

  const run = await fx.run(["sessions", "stats", "--since", "30d", "--json"]);
  expect(run.code).toBe(0);
  const s = JSON.parse(run.stdout);
  expect(s.sessions).toBe(2);
  expect(s.turns).toBe(3); // p1, p2 in the parent, f1 in the fork
  const by = (m: string) => s.models.find((x: any) => x.model === m);
  expect(by("claude-sonnet-4-5")).toMatchObject({ requests: 3, input: 1410, output: 251, cacheRead: 5000, cacheWrite: 300 });
  expect(by("claude-haiku-4-5")).toMatchObject({ requests: 1, input: 120, output: 8 });
  expect(by("my-local-model")).toMatchObject({ provider: "openai", input: 77, output: 11, cost: null });
  // $3 in, $15 out, $0.30 cache reads, $3.75 cache writes per million tokens; Haiku 4.5 $1 / $5.
  expect(by("claude-sonnet-4-5").cost).toBeCloseTo((1410 * 3 + 251 * 15 + 5000 * 0.3 + 300 * 3.75) / 1e6, 12);
  expect(by("claude-haiku-4-5").cost).toBeCloseTo((120 * 1 + 8 * 5) / 1e6, 12);
  expect(s.total).toMatchObject({ requests: 5, input: 1607, output: 270, cacheRead: 5000, cacheWrite: 300 });
  expect(s.unpriced).toEqual(["openai/my-local-model"]);

  const all = JSON.parse((await fx.run(["sessions", "stats", "--json"])).stdout);
  expect(all.total.input).toBe(1607 + 999);

  const text = await fx.run(["sessions", "stats"]);
  expect(text.stdout).toContain("3 sessions, 4 turns (this directory)");
  expect(text.stdout).toMatch(/^total\s+6\s+2,606\s+5,000\s+300\s+1,269\s+at least \$0\.\d{4}$/m);
  expect(text.stdout).toContain("No price known for openai/my-local-model");
});

test("the default models have prices, and a total that leaves out an unpriced model says it is a lower bound", async () => {
  write("019d0000-0000-7000-8000-000000000004", [
    prompt("p1", null, at(1)),
    answer("a1", "p1", at(1), "claude-sonnet-5-5", { input: 1_000_000, output: 100_000, cacheRead: 1_000_000, cacheWrite: 100_000 }),
    prompt("p2", "a1", at(1)),
    answer("a2", "p2", at(1), "gpt-5.4-mini", { input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000 }, "openai"),
  ]);
  const priced = JSON.parse((await fx.run(["sessions", "stats", "--json"])).stdout);
  const by = (m: string) => priced.models.find((x: any) => x.model === m);
  // Sonnet 5.5: $2 in, $10 out, $0.20 cache reads, $2.50 cache writes; GPT-5.4 mini: $0.75 in, $4.50 out, $0.075 cached.
  expect(by("claude-sonnet-5-5").cost).toBeCloseTo(2 + 1 + 0.2 + 0.25, 9);
  expect(by("gpt-5.4-mini").cost).toBeCloseTo(0.75 + 4.5 + 0.075, 9);
  expect(priced.unpriced).toEqual([]);
  expect((await fx.run(["sessions", "stats"])).stdout).toMatch(/^total\s+2\s.*\s\$8\.78$/m);

  write("019e0000-0000-7000-8000-000000000005", [prompt("q1", null, at(1)), answer("q2", "q1", at(1), "my-local-model", { input: 5, output: 5 }, "openai")]);
  const text = (await fx.run(["sessions", "stats"])).stdout;
  expect(text).toMatch(/^total\s+3\s.*\sat least \$8\.78$/m);
  expect(text).toContain("No price known for openai/my-local-model");
});

test("a total of models none of which has a price is no price, not $0", async () => {
  write("019f0000-0000-7000-8000-000000000006", [prompt("q1", null, at(1)), answer("q2", "q1", at(1), "my-local-model", { input: 5, output: 5 }, "openai")]);
  const text = (await fx.run(["sessions", "stats"])).stdout;
  expect(text).toMatch(/^total\s+1\s.*\sno price$/m);
  expect(text).not.toContain("$0");
  expect(JSON.parse((await fx.run(["sessions", "stats", "--json"])).stdout).total.cost).toBeNull();
});

test("a model name from the log is shown, never run: its escape sequences reach the terminal as pictures", async () => {
  write("019a0000-0000-7000-8000-000000000001", [prompt("p1", null, at(1)), answer("a1", "p1", at(1), "local\x1b]0;stats-title\x07\x1b[2J", { input: 5, output: 1 }, "openai")]);
  const run = await fx.run(["sessions", "stats"]);
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain("\x1b");
  expect(run.stdout).not.toContain("\x07");
  expect(run.stdout).toContain("openai/local␛]0;stats-title␇␛[2J");
});
