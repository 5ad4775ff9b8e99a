// Thinking as each model takes it, against the test server playing each
// model's rules: the request's form per model, a budget that stays the same
// through a tool loop, refusals before any request, what a refusal teaches,
// and thinking that stays valid after a compaction on models that bind it.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import type { AgentEvent } from "../../src/agent/events";
import type { ModelInfo } from "../../src/providers/model-info";
import type { Effort } from "../../src/providers/thinking-forms";
import { SessionManager, type ModelRef } from "../../src/session";
import type { RecordedRequest, Reply } from "../support/server";
import { logLines, useAgentFixture } from "./helpers";

const fx = useAgentFixture();

function newAgent(model: ModelRef, o: { effort?: Effort; info?: ModelInfo; session?: SessionManager } = {}) {
  const session = o.session ?? SessionManager.init({ cwd: fx.project, ...model });
  return new Agent({ session, cwd: fx.project, model, env: fx.env, effort: o.effort, modelInfo: (_p, id) => (o.info?.id === id ? o.info : undefined) });
}

async function turn(agent: Agent, prompt: string) {
  const events: AgentEvent[] = [];
  const result = await agent.runTurn(prompt, new AbortController().signal, (e) => events.push(e));
  return { result, events };
}

/** Tool results since the person's latest prompt: how far into its tool loop a request is. */
function roundOf(r: RecordedRequest): number {
  const messages: any[] = r.body.messages;
  const prompt = messages.findLastIndex((m) => m.role === "user" && m.content.some((b: any) => b.type === "text"));
  return messages.slice(prompt + 1).filter((m) => m.role === "user").length;
}

/** A model that thinks, then reads notes.txt `rounds` times in one turn, then answers. */
const looping = (rounds: number) => (r: RecordedRequest): Reply => {
  if (r.rawBody.includes("about to be compacted") || r.rawBody.includes("You compact a coding session")) return { blocks: [{ type: "text", text: "## Goal\nRead notes.txt." }] };
  const round = roundOf(r);
  const thinking = { type: "thinking" as const, thinking: `Round ${round} of request ${fx.server.requests.length}.` };
  if (round < rounds) return { blocks: [thinking, { type: "toolUse", name: "read", input: { path: "notes.txt" } }] };
  return { blocks: [thinking, { type: "text", text: `Read it ${rounds} times.` }] };
};

const ok = (result: { stopReason: string; errorMessage?: string }) => ({ stop: result.stopReason, error: result.errorMessage });

describe("the request's thinking, per model", () => {
  test("--effort high: adaptive thinking with the level to adaptive models, thinking text asked for where it is hidden", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "a fox\n");
    fx.server.respond = looping(2);
    for (const model of ["claude-opus-4-7", "claude-sonnet-4-6"]) {
      const before = fx.server.requests.length;
      const { result } = await turn(newAgent({ provider: "anthropic", model }, { effort: "high" }), "read notes.txt twice");
      expect(ok(result)).toEqual({ stop: "stop", error: undefined });
      const sent = fx.server.requests.slice(before);
      expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
      const display = model === "claude-opus-4-7" ? { display: "summarized" } : {};
      for (const r of sent) expect([r.body.thinking, r.body.output_config]).toEqual([{ type: "adaptive", ...display }, { effort: "high" }]);
    }
  });

  test("--effort high on a budget model: the same budget and max_tokens on every request of a 10-round tool loop", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "a fox\n".repeat(2000));
    fx.server.respond = looping(10);
    const info = { id: "claude-haiku-4-5", maxOutputTokens: 64_000 };
    const { result } = await turn(newAgent({ provider: "anthropic", model: "claude-haiku-4-5" }, { effort: "high", info }), "read notes.txt ten times");
    expect(ok(result)).toEqual({ stop: "stop", error: undefined });
    const sent = fx.server.requests;
    expect(sent).toHaveLength(11);
    expect(new Set(sent.map((r) => r.status))).toEqual(new Set([200]));
    for (const r of sent) expect([r.body.thinking, r.body.max_tokens]).toEqual([{ type: "enabled", budget_tokens: 24_576 }, 24_576 + 16_384]);
    expect(sent.every((r) => r.body.output_config === undefined)).toBe(true); // Haiku 4.5 takes no effort level
  });

  test("near the window the budget is not lowered: awl compacts mid-loop, and every request keeps the turn's thinking and max_tokens", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "a fox jumps over the lazy dog\n".repeat(400));
    Object.assign(fx.env, { AWL_CONTEXT_WINDOW: "60000" });
    fx.server.respond = looping(10);
    const info = { id: "claude-haiku-4-5", maxOutputTokens: 64_000 };
    const agent = newAgent({ provider: "anthropic", model: "claude-haiku-4-5" }, { effort: "high", info });
    for (let t = 0; t < 2; t++) expect(ok((await turn(agent, `prompt ${t}: read notes.txt ten times`)).result)).toEqual({ stop: "stop", error: undefined });
    const sent = fx.server.requests;
    expect(sent.every((r) => r.status === 200)).toBe(true);
    expect(agent.session.compaction()).toBeDefined();
    // A quarter of the 60k window: 15k, half of it the budget.
    const turns = sent.filter((r) => !JSON.stringify(r.body.messages.at(-1)).includes("about to be compacted"));
    for (const r of turns) expect([r.body.thinking, r.body.max_tokens]).toEqual([{ type: "enabled", budget_tokens: 7500 }, 15_000]);
  });

  test("a model that hides its thinking text: the signed empty block goes back unchanged", async () => {
    fx.server.respond = looping(1);
    await Bun.write(join(fx.project, "notes.txt"), "a fox\n");
    const { result } = await turn(newAgent({ provider: "anthropic", model: "claude-opus-4-7" }), "read notes.txt");
    expect(ok(result)).toEqual({ stop: "stop", error: undefined });
    const [first, second] = fx.server.requests;
    expect(first!.body.thinking).toBeUndefined(); // no effort chosen: nothing asked, so nothing summarized either
    const replayedBlock = second!.body.messages[1].content[0];
    expect([second!.status, replayedBlock.type, replayedBlock.thinking, typeof replayedBlock.signature]).toEqual([200, "thinking", "", "string"]);
  });

  test("a model that always thinks and hides the text is asked to show it, even with no effort chosen (and no level is sent)", async () => {
    fx.server.respond = () => ({ blocks: [{ type: "thinking", thinking: "shown" }, { type: "text", text: "hi" }] });
    await turn(newAgent({ provider: "anthropic", model: "claude-fable-5" }), "hi");
    const [sent] = fx.server.requests;
    expect([sent!.status, sent!.body.thinking, sent!.body.output_config]).toEqual([200, { type: "adaptive", display: "summarized" }, undefined]);
  });

  test("a model that takes a budget and effort levels gets both; no --effort sends nothing", async () => {
    fx.server.respond = () => ({ blocks: [{ type: "text", text: "hi" }] });
    await turn(newAgent({ provider: "anthropic", model: "claude-opus-4-5" }, { effort: "low" }), "hi");
    await turn(newAgent({ provider: "anthropic", model: "claude-opus-4-7" }), "hi");
    const [both, none] = fx.server.requests;
    expect([both!.status, both!.body.thinking, both!.body.output_config]).toEqual([200, { type: "enabled", budget_tokens: 4096 }, { effort: "low" }]);
    expect([none!.status, none!.body.thinking, none!.body.output_config, none!.body.max_tokens]).toEqual([200, undefined, undefined, 16_384]);
  });

  test("OpenAI: off is none where the model takes it, else minimal; xhigh and max are xhigh where taken, else high", async () => {
    fx.server.respond = () => ({ blocks: [{ type: "text", text: "hi" }] });
    const cases: [string, Effort, string][] = [["gpt-5.1", "off", "none"], ["gpt-5", "off", "minimal"], ["gpt-5.2", "max", "xhigh"], ["gpt-5", "max", "high"], ["o4-mini", "medium", "medium"]];
    for (const [model, effort] of cases) await turn(newAgent({ provider: "openai", model }, { effort }), "hi");
    expect(fx.server.requests.map((r) => [r.body.model, r.body.reasoning_effort])).toEqual(cases.map(([model, , sent]) => [model, sent]));
  });
});

describe("refused before any request", () => {
  test("a level the model does not take, and off on a model that always thinks: one line naming what it takes, nothing sent or written", async () => {
    const cases: [string, Effort, string][] = [
      ["claude-opus-4-5", "max", "claude-opus-4-5 does not take effort max: it takes low, medium, high"],
      ["claude-fable-5", "off", "claude-fable-5 always thinks: effort off is not possible (low thinks least)"],
    ];
    for (const [model, effort, line] of cases) {
      const agent = newAgent({ provider: "anthropic", model }, { effort });
      const { result, events } = await turn(agent, "hi");
      expect(ok(result)).toEqual({ stop: "error", error: line });
      expect(events).toEqual([{ type: "end", stopReason: "error", errorMessage: line }]);
      expect(agent.session.messageCount()).toBe(0);
    }
    expect(fx.server.requests).toHaveLength(0);
  });

  test("a refusal that names the other form is learnt: the request goes again in that form, and the turn succeeds", async () => {
    fx.server.respond = () => ({ blocks: [{ type: "text", text: "hi" }] });
    // A catalogue that (wrongly) says the model takes a budget.
    const agent = newAgent({ provider: "anthropic", model: "claude-opus-4-8" }, { effort: "medium", info: { id: "claude-opus-4-8", thinkingTypes: ["enabled"] } });
    const { result } = await turn(agent, "hi");
    expect(ok(result)).toEqual({ stop: "stop", error: undefined });
    expect(fx.server.requests.map((r) => [r.status, r.body.thinking?.type])).toEqual([[400, "enabled"], [200, "adaptive"]]);
    await turn(agent, "again");
    expect(fx.server.requests.at(-1)!.body.thinking.type).toBe("adaptive"); // kept for the process
  });
});

describe("thinking bound to its prefix", () => {
  const BINDING = { provider: "anthropic", model: "claude-opus-5-5" };
  /** The thinking blocks a request replays, by message index. */
  const replayed = (r: RecordedRequest) =>
    r.body.messages.flatMap((m: any, i: number) => (m.role === "assistant" ? m.content.filter((b: any) => b.type === "thinking").map(() => i) : []));

  test("after /compact and after a resume, the kept turn's thinking is not replayed, and no request is refused", async () => {
    await Bun.write(join(fx.project, "notes.txt"), "a fox\n");
    fx.server.respond = looping(1);
    const agent = newAgent(BINDING, { effort: "high" });
    for (let t = 0; t < 3; t++) expect(ok((await turn(agent, `prompt ${t}: read notes.txt`)).result)).toEqual({ stop: "stop", error: undefined });
    expect(replayed(fx.server.requests.at(-1)!).length).toBeGreaterThan(2); // before any compaction, thinking goes back
    expect((await agent.compact(new AbortController().signal, () => {})).compacted).toBe(true);
    const afterCompaction = fx.server.requests.length;
    expect(ok((await turn(agent, "prompt 3: read notes.txt")).result)).toEqual({ stop: "stop", error: undefined });
    const next = fx.server.requests.slice(afterCompaction);
    expect(next.map((r) => r.status)).toEqual([200, 200]);
    // The kept turn goes without its thinking; this turn's own thinking (the call the last message answers) goes back.
    expect(replayed(next[1]!)).toEqual([next[1]!.body.messages.length - 2]);
    agent.session.close();

    const session = (await SessionManager.open(agent.session.sessionFile)) as SessionManager;
    const resumed = newAgent(BINDING, { effort: "high", session });
    const before = fx.server.requests.length;
    expect(ok((await turn(resumed, "prompt 4: read notes.txt")).result)).toEqual({ stop: "stop", error: undefined });
    expect(fx.server.requests.slice(before).map((r) => r.status)).toEqual([200, 200]);
    resumed.session.close();
  });

  test("thinking made under another system prompt or other tools (another awl) is not replayed; the log keeps each answer's prefix hash", async () => {
    fx.server.respond = looping(0);
    const agent = newAgent(BINDING, { effort: "high" });
    await turn(agent, "hi");
    agent.session.close();
    const file = agent.session.sessionFile;
    const assistant = (await logLines(file)).find((l) => l.message?.role === "assistant");
    expect(assistant.prefixHash).toMatch(/^[0-9a-f]{12}$/);
    writeFileSync(file, readFileSync(file, "utf8").replace(`"prefixHash":"${assistant.prefixHash}"`, '"prefixHash":"0123456789ab"'));
    const resumed = newAgent(BINDING, { effort: "high", session: (await SessionManager.open(file)) as SessionManager });
    await turn(resumed, "again");
    expect(replayed(fx.server.requests.at(-1)!)).toEqual([]);
    const lines = await logLines(file);
    expect(lines.filter((l) => l.message?.role === "user").map((l) => l.effort)).toEqual(["high", "high"]);
    resumed.session.close();
  });
});
