// Sessions that never hit the wall: the agent compacts before a request that
// would not fit, after an overflow the API reports, and on /compact; the log
// only grows, and a resumed session sends what the live one would have sent.
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import type { AgentEvent } from "../../src/agent/events";
import { SessionManager } from "../../src/session";
import type { RecordedRequest, Reply, TestServerOptions } from "../support/server";
import { agentFixture, logLines } from "./helpers";

let fx: Awaited<ReturnType<typeof agentFixture>>;
afterEach(async () => {
  await fx.cleanup();
});

const CLAUDE = { provider: "anthropic", model: "claude-sonnet-4-5" };
const GPT = { provider: "openai", model: "gpt-5-mini" };

/** A note the model reads every turn: ~2 KB of tool output per turn. */
const NOTES = Array.from({ length: 40 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n");

/** A summary request: of the transcript, or a fork of the conversation that ends in the instruction. */
const isSummary = (r: RecordedRequest) => r.rawBody.includes("You compact a coding session") || isFork(r);
const isFork = (r: RecordedRequest) => JSON.stringify(r.body?.messages?.at(-1) ?? "").includes("the conversation is about to be compacted");
/** What the request ends with: a tool result (Anthropic user tool_result, OpenAI tool message) or a prompt. */
function endsWithToolResult(r: RecordedRequest): boolean {
  const last = r.body.messages.at(-1);
  if (last.role === "tool") return true;
  return Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result");
}

/** A model that reads notes.txt once per prompt, then answers; summaries when asked for one. */
function readingModel(r: RecordedRequest): Reply {
  if (isSummary(r)) return { blocks: [{ type: "text", text: `## Goal\nRead notes.txt on every prompt.\n## Progress\n${r.rawBody.length} bytes summarized.` }] };
  if (endsWithToolResult(r)) return { blocks: [{ type: "text", text: "Read it: 40 lines about a fox." }] };
  return { blocks: [{ type: "text", text: "Reading." }, { type: "toolUse", name: "read", input: { path: "notes.txt" } }] };
}

async function setUp(server: TestServerOptions = {}, env: Record<string, string> = {}) {
  fx = await agentFixture(server);
  await Bun.write(join(fx.project, "notes.txt"), NOTES);
  Object.assign(fx.env, env);
}

function newAgent(model = CLAUDE, session = SessionManager.init({ cwd: fx.project, ...model })) {
  return new Agent({ session, cwd: fx.project, model, env: fx.env });
}

async function turn(agent: Agent, prompt: string, signal = new AbortController().signal) {
  const events: AgentEvent[] = [];
  const result = await agent.runTurn(prompt, signal, (e) => events.push(e));
  return { result, events };
}

const compacted = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: "compacted" }> => e.type === "compacted");
/** The messages of a request without the cache markers (they move by design). */
const withoutMarkers = (body: unknown) => JSON.stringify(body, (key, value) => (key === "cache_control" ? undefined : value));

describe("a long session against a small window", () => {
  for (const model of [CLAUDE, GPT])
  test(`${model.provider}: 200 turns with tool calls: no turn fails, every compaction is in the log, and every line written before it stays byte for byte`, async () => {
    await setUp({ contextWindow: 6000, minCacheableTokens: 256 }, { AWL_CONTEXT_WINDOW: "6000" });
    fx.server.respond = readingModel;
    const agent = newAgent(model);
    let compactions = 0;
    let file = Buffer.alloc(0);
    for (let t = 0; t < 200; t++) {
      const { result, events } = await turn(agent, `turn ${t}: read notes.txt again and tell me what it holds`);
      expect({ t, stop: result.stopReason, error: result.errorMessage }).toEqual({ t, stop: "stop", error: undefined });
      compactions += compacted(events).length;
      const now = readFileSync(agent.session.sessionFile);
      expect(now.subarray(0, file.length).equals(file)).toBe(true); // append-only
      file = now;
      expect(result.context.tokens).toBeLessThanOrEqual(6000);
    }
    const lines = await logLines(agent.session.sessionFile);
    const entries = lines.filter((l) => l.type === "compaction");
    expect(compactions).toBeGreaterThan(20);
    expect(entries.map((e) => e.n)).toEqual(Array.from({ length: compactions }, (_, i) => i + 1));
    expect(lines.filter((l) => l.type === "message" && l.message.role === "user" && l.message.content.some((b: { type: string }) => b.type === "text"))).toHaveLength(200);
    expect(entries.at(-1).summarizedTurns).toBeGreaterThan(150);
    expect(fx.server.requests.every((r) => r.status === 200)).toBe(true); // it never had to be told the prompt was too long
    // The user's own words survive compaction verbatim: the latest request carries the newest prompts word for word.
    const last = fx.server.requests.at(-1)!.rawBody;
    expect(last).toContain("turn 199: read notes.txt again");
    expect(last).toContain("turn 198: read notes.txt again");
  }, 120_000);

  test("after a compaction, a resumed session sends exactly what the live one sends next (cache markers aside)", async () => {
    await setUp({ contextWindow: 5000, minCacheableTokens: 256 }, { AWL_CONTEXT_WINDOW: "5000" });
    fx.server.respond = readingModel;
    const live = newAgent();
    for (let t = 0; compacted((await turn(live, `turn ${t}: read notes.txt`)).events).length === 0; t++) expect(t).toBeLessThan(30);
    await turn(live, "one more after the compaction");
    // The file as it is now, resumed under another name while the live session goes on.
    const copy = live.session.sessionFile.replace(/\.jsonl$/, "-copy.jsonl");
    copyFileSync(live.session.sessionFile, copy);
    const before = fx.server.requests.length;
    await turn(live, "and the next prompt");
    const liveBody = fx.server.requests[before]!.body;

    const reopened = await SessionManager.open(copy);
    expect(reopened.readFrom).toBeGreaterThan(0); // read from the tail
    const resumed = newAgent(CLAUDE, reopened);
    const again = fx.server.requests.length;
    await turn(resumed, "and the next prompt");
    const resumedBody = fx.server.requests[again]!.body;
    expect(withoutMarkers(resumedBody)).toBe(withoutMarkers(liveBody));
    reopened.close();
  });
});

describe("a log whose lines have their keys in another order", () => {
  /** The line with its top-level keys reversed: `{"message":…,"parentId":…,"id":…,"type":…}`. */
  const reversed = (line: string) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line)).reverse()));
  const variants: [string, (entry: { type?: string; message?: { role: string } }) => boolean][] = [
    ["every entry", (e) => e.type !== undefined && e.type !== "session"],
    ["the compactions", (e) => e.type === "compaction"],
    ["the prompts and tool results", (e) => e.message?.role === "user"],
  ];

  test("resume from the tail finds the compaction, and sends what the whole log replayed sends", async () => {
    await setUp({ contextWindow: 5000, minCacheableTokens: 256 }, { AWL_CONTEXT_WINDOW: "5000" });
    fx.server.respond = readingModel;
    const live = newAgent();
    let compactions = 0;
    for (let t = 0; compactions < 2; t++) {
      compactions += compacted((await turn(live, `turn ${t}: read notes.txt`)).events).length;
      expect(t).toBeLessThan(40);
    }
    // The next turn may compact again (how soon depends on the size of the tools' definitions): counted too.
    compactions += compacted((await turn(live, "one more after the compactions")).events).length;
    const written = readFileSync(live.session.sessionFile, "utf8");
    const before = fx.server.requests.length;
    // The live session holds every entry appended since the start: the whole log, replayed.
    await turn(live, "and the next prompt");
    const liveBody = withoutMarkers(fx.server.requests[before]!.body);

    for (const [name, reorder] of variants) {
      const lines = written.split("\n").map((line) => (line && reorder(JSON.parse(line)) ? reversed(line) : line));
      const copy = live.session.sessionFile.replace(/\.jsonl$/, `-${name.replaceAll(" ", "-")}.jsonl`);
      writeFileSync(copy, lines.join("\n"), { mode: 0o600 });
      const reopened = await SessionManager.open(copy);
      const kept = reopened.context().compaction!.firstKeptEntryId;
      const keptLine = lines.findIndex((l) => l && JSON.parse(l).id === kept);
      // Read from the tail: from the kept prompt's line, not from the top.
      expect({ name, readFrom: reopened.readFrom }).toEqual({ name, readFrom: lines.slice(0, keptLine).join("\n").length + 1 });
      expect(reopened.context().compaction!.n).toBe(compactions);
      const at = fx.server.requests.length;
      await turn(newAgent(CLAUDE, reopened), "and the next prompt");
      expect({ name, body: withoutMarkers(fx.server.requests[at]!.body) }).toEqual({ name, body: liveBody });
      reopened.close();
    }
  });
});

describe("overflow reported by the API", () => {
  async function longHistory(agent: Agent, turns: number) {
    for (let t = 0; t < turns; t++) await turn(agent, `earlier prompt ${t}: read notes.txt`);
  }

  // The history is built with a model the server sets no window for; then the model the server limits takes over.
  for (const [provider, model, other, style, limit] of [
    ["anthropic", CLAUDE, "claude-opus-4-5", "prompt_too_long", 4000],
    ["anthropic", CLAUDE, "claude-opus-4-5", "input_and_max_tokens", 4000],
    ["openai", GPT, "gpt-5", "context_length_exceeded", 4000],
    ["openai", GPT, "gpt-5", "llama_cpp", 4000],
  ] as const) {
    test(`${provider} ${style}: compact to the window the error states, then the same request succeeds`, async () => {
      await setUp({ contextWindow: { [model.model]: limit }, overflowStyle: { [provider]: style } });
      fx.server.respond = readingModel;
      const agent = newAgent({ provider, model: other });
      await longHistory(agent, 12);
      agent.setModel(model); // the model table says 200k or 272k: no compaction before the request
      const before = fx.server.requests.length;
      const { result, events } = await turn(agent, "the prompt that does not fit");
      expect({ stop: result.stopReason, error: result.errorMessage }).toEqual({ stop: "stop", error: undefined });
      // The overflow, the summary (in as many pieces as the learnt window needs), the retried request (a tool call), the answer.
      const statuses = fx.server.requests.slice(before).map((r) => (isSummary(r) ? `summary ${r.status}` : r.status));
      const pieces = statuses.length - 3;
      expect(statuses).toEqual([400, ...Array(pieces).fill("summary 200"), 200, 200]);
      expect(pieces).toBeGreaterThanOrEqual(1);
      expect(compacted(events)).toHaveLength(1);
      expect(events.filter((e) => e.type === "end" && e.overflow)).toEqual([]); // the person never sees the handled overflow
      const entry = (await logLines(agent.session.sessionFile)).find((l) => l.type === "compaction");
      expect(entry.window).toBe(limit); // learnt from the error, kept for later runs
      agent.session.close();
      const resumed = newAgent(model, await SessionManager.open(agent.session.sessionFile));
      expect(resumed.window()).toBe(limit);
      resumed.session.close();
    });
  }

  test("an overflow that states no limit compacts to half of what was sent, and a summary that is itself too long goes in pieces, without a loop", async () => {
    await setUp({ contextWindow: { [GPT.model]: 3000 }, overflowStyle: { openai: "exceeds_context_window" } });
    fx.server.respond = readingModel;
    const agent = newAgent({ provider: "openai", model: "gpt-5" });
    await longHistory(agent, 40); // ~100 KB
    agent.setModel(GPT);
    const before = fx.server.requests.length;
    const { result } = await turn(agent, "the prompt that does not fit");
    expect(result.stopReason).toBe("stop");
    const requests = fx.server.requests.slice(before);
    const summaries = requests.filter(isSummary);
    expect(summaries.length).toBeGreaterThan(1);
    expect(summaries.some((r) => r.status === 400)).toBe(true); // one was too long and was split
    expect(summaries.at(-1)!.status).toBe(200);
    // Each piece updates the summary of the pieces before it.
    expect(summaries.filter((r) => r.status === 200).slice(1).every((r) => r.rawBody.includes("The summary so far"))).toBe(true);
    expect(requests.length).toBeLessThan(40);
    agent.session.close();
  });

  test("a second overflow cuts the kept turn's tool results; a third ends the turn with one error line, and the log says why", async () => {
    await setUp();
    await Bun.write(join(fx.project, "big.txt"), "x".repeat(30_000));
    fx.server.respond = readingModel;
    const agent = newAgent();
    await turn(agent, "an earlier prompt: read notes.txt");
    const tooLong = { fault: { status: 400, message: "prompt is too long: 90000 tokens > 80000 maximum" } };
    fx.server.respond = undefined;
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "read", input: { path: "big.txt" } }] },
      tooLong,
      { blocks: [{ type: "text", text: "summary of the earlier turn" }] },
      tooLong,
      tooLong,
    );
    const { result, events } = await turn(agent, "read big.txt");
    expect(result.stopReason).toBe("error");
    expect(result.errorMessage).toContain("prompt is too long");
    expect(fx.server.pending()).toBe(0);
    const entries = (await logLines(agent.session.sessionFile)).filter((l) => l.type === "compaction");
    expect(entries.map((e) => [e.n, e.cutToolResults.length])).toEqual([[1, 0], [2, 1]]);
    const errors = events.filter((e) => e.type === "end" && e.stopReason === "error");
    expect(errors).toHaveLength(1);
    const last = (await logLines(agent.session.sessionFile)).at(-1);
    expect(last.message).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: expect.stringContaining("too long") });
    // The request after the second compaction carried the big result cut to its ends.
    const cut = fx.server.requests.at(-1)!.rawBody;
    expect(cut).toContain("bytes cut]");
    expect(cut.length).toBeLessThan(20_000);
    agent.session.close();
  });
});

describe("compacting by hand, and across providers", () => {
  test("/compact keeps the latest turn and summarizes the rest, with what to keep in mind", async () => {
    await setUp();
    fx.server.respond = readingModel;
    const agent = newAgent();
    for (let t = 0; t < 3; t++) await turn(agent, `prompt ${t}: read notes.txt`);
    const events: AgentEvent[] = [];
    const done = await agent.compact(new AbortController().signal, (e) => events.push(e), "the fox's colour");
    expect(done.compacted).toBe(true);
    const summary = fx.server.requests.at(-1)!;
    expect(isSummary(summary)).toBe(true);
    expect(summary.rawBody).toContain("the fox's colour");
    expect(summary.rawBody).toContain("prompt 1: read notes.txt");
    // Asked of the conversation as it is (so it reads from the cache), up to the latest turn, which is kept.
    expect(isFork(summary)).toBe(true);
    expect(JSON.stringify(summary.body.messages.at(-1))).toContain('before my latest request (the one that begins \\"prompt 2: read notes.txt\\")');
    expect(agent.conversation.messages.map((m) => m.role)).toEqual(["system", "user", "user", "assistant", "user", "assistant"]);
    expect(events.map((e) => e.type)).toEqual(["compacting", "compacted"]);
    const again = await agent.compact(new AbortController().signal, () => {});
    expect(again).toEqual({ compacted: false, reason: "everything before the latest turn is already summarized" });
    agent.session.close();
  });

  test("interrupting the summary request writes nothing", async () => {
    await setUp();
    fx.server.respond = readingModel;
    const agent = newAgent();
    for (let t = 0; t < 2; t++) await turn(agent, `prompt ${t}`);
    const before = readFileSync(agent.session.sessionFile);
    fx.server.respond = undefined;
    fx.server.reply({ blocks: [{ type: "text", text: "a summary that never finishes ".repeat(50) }], delayMs: 50 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await agent.compact(controller.signal, () => {}).catch((e) => e);
    expect(error.aborted).toBe(true);
    expect(readFileSync(agent.session.sessionFile).equals(before)).toBe(true);
    agent.session.close();
  });

  test("a provider switch after a compaction: the rebuilt context is a valid request for the other API", async () => {
    await setUp({ contextWindow: 5000, minCacheableTokens: 256 }, { AWL_CONTEXT_WINDOW: "5000" });
    fx.server.respond = readingModel;
    const agent = newAgent(CLAUDE);
    for (let t = 0; compacted((await turn(agent, `turn ${t}: read notes.txt`)).events).length === 0; t++) expect(t).toBeLessThan(30);
    agent.setModel(GPT);
    const { result } = await turn(agent, "now on OpenAI: read notes.txt once more");
    expect(result.stopReason).toBe("stop");
    const openai = fx.server.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(openai.length).toBeGreaterThan(0);
    expect(openai.every((r) => r.status === 200)).toBe(true);
    expect(openai[0]!.rawBody).toContain("<summary>");
    agent.setModel(CLAUDE);
    expect((await turn(agent, "and back to Claude")).result.stopReason).toBe("stop");
    agent.session.close();
  });
});

describe("prompt caching", () => {
  test("an automatic compaction at about 150k tokens asks the conversation itself for the summary, and reads at least 90% of that request from the cache", async () => {
    await setUp({ contextWindow: 175_000 }, { AWL_CONTEXT_WINDOW: "175000" });
    await Bun.write(join(fx.project, "big.txt"), Array.from({ length: 700 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
    fx.server.respond = (r) => {
      if (isSummary(r)) return { blocks: [{ type: "text", text: "## Goal\nRead big.txt on every prompt." }] };
      if (endsWithToolResult(r)) return { blocks: [{ type: "text", text: "Read it: 700 lines about a fox." }] };
      return { blocks: [{ type: "text", text: "Reading." }, { type: "toolUse", name: "read", input: { path: "big.txt" } }] };
    };
    const agent = newAgent();
    for (let t = 0; t < 40 && !agent.session.compaction(); t++) {
      const { result } = await turn(agent, `turn ${t}: read big.txt again`);
      expect({ t, stop: result.stopReason, error: result.errorMessage }).toEqual({ t, stop: "stop", error: undefined });
    }
    const entry = (await logLines(agent.session.sessionFile)).find((l) => l.type === "compaction");
    expect(entry.tokensBefore).toBeGreaterThan(140_000);
    const forks = fx.server.requests.filter(isFork);
    expect(forks.map((r) => r.status)).toEqual([200]);
    expect(fx.server.requests.some((r) => r.rawBody.includes("You compact a coding session"))).toBe(false); // no transcript pieces
    const { input, cacheRead = 0, cacheWrite = 0 } = entry.usage;
    const share = cacheRead / (input + cacheRead + cacheWrite);
    console.log(`summary request of a compaction at ${entry.tokensBefore} tokens: ${(100 * share).toFixed(1)}% read from the cache`);
    expect(share).toBeGreaterThanOrEqual(0.9);
    agent.session.close();
  });

  test("a tool call in the fork's answer is never run: with no text in it, the summary comes from the transcript", async () => {
    await setUp();
    fx.server.respond = (r) => (isFork(r) ? { blocks: [{ type: "toolUse", name: "bash", input: { command: "touch ran" } }] } : readingModel(r));
    const agent = newAgent();
    for (let t = 0; t < 3; t++) await turn(agent, `prompt ${t}: read notes.txt`);
    const done = await agent.compact(new AbortController().signal, () => {});
    if (!done.compacted) throw new Error("not compacted");
    expect(done.entry.summary).toStartWith("## Goal\nRead notes.txt on every prompt.");
    expect(fx.server.requests.slice(-2).map((r) => (isFork(r) ? "fork" : isSummary(r) ? "transcript" : "other"))).toEqual(["fork", "transcript"]);
    expect(await Bun.file(join(fx.project, "ran")).exists()).toBe(false);
    expect(done.entry.usage!.cacheRead).toBeGreaterThan(0); // the fork read the conversation from the cache: its usage is counted too
    agent.session.close();
  });

  test("a 10-round tool turn reads most of its input from the cache after the first request", async () => {
    await setUp({ minCacheableTokens: 1024 });
    const agent = newAgent();
    let rounds = 0;
    fx.server.respond = () =>
      ++rounds <= 10 ? { blocks: [{ type: "toolUse", name: "read", input: { path: "notes.txt" } }] } : { blocks: [{ type: "text", text: "done" }] };
    const { result } = await turn(agent, "read notes.txt ten times");
    expect(result.stopReason).toBe("stop");
    const lines = (await logLines(agent.session.sessionFile)).filter((l) => l.message?.role === "assistant");
    const after = lines.slice(1).map((l) => l.message.usage);
    const input = after.reduce((n, u) => n + u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0), 0);
    const read = after.reduce((n, u) => n + (u.cacheRead ?? 0), 0);
    expect(read / input).toBeGreaterThanOrEqual(0.8);
    expect(result.usage.cacheRead).toBe(lines.reduce((n, l) => n + (l.message.usage.cacheRead ?? 0), 0));
    agent.session.close();
  });
});

describe("a window that shrinks", () => {
  test("a summary written for a large window is rewritten shorter when an error states a small one", async () => {
    await setUp({ contextWindow: { [CLAUDE.model]: 4000 } });
    const longSummary = `## Goal\n${"Keep every detail of the fox. ".repeat(700)}`; // ~5,000 tokens: more than the small window
    fx.server.respond = (r) => (isSummary(r) ? { blocks: [{ type: "text", text: longSummary }] } : readingModel(r));
    const agent = newAgent({ provider: "anthropic", model: "claude-opus-4-5" });
    // Enough turns that the long summary still makes the context smaller (/compact keeps nothing larger).
    for (let t = 0; t < 12; t++) await turn(agent, `prompt ${t}: read notes.txt`);
    expect((await agent.compact(new AbortController().signal, () => {})).compacted).toBe(true);
    await turn(agent, "one more turn under the large window");
    fx.server.respond = (r) => (isSummary(r) ? { blocks: [{ type: "text", text: "## Goal\nThe fox, in short." }] } : readingModel(r));
    agent.setModel(CLAUDE);
    const { result } = await turn(agent, "now under the small one");
    expect({ stop: result.stopReason, error: result.errorMessage }).toEqual({ stop: "stop", error: undefined });
    const summaries = fx.server.requests.filter(isSummary);
    const last = summaries.at(-1)!;
    expect(last.status).toBe(200);
    expect(last.rawBody).toContain("bytes cut]"); // the old summary went in shortened
    const entries = (await logLines(agent.session.sessionFile)).filter((l) => l.type === "compaction");
    expect(entries.at(-1)).toMatchObject({ n: 2, window: 4000, summary: "## Goal\nThe fox, in short." });
    agent.session.close();
  });
});
