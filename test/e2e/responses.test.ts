// dist/awl speaking OpenAI's Responses API to the strict test server: a long
// tool loop with reasoning, resumed, switched to Anthropic and back and to
// another OpenAI key, a response cut off in the middle of a function call,
// and what the prompt cache serves over a long loop.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../support/server";
import { e2eFixture, sessionFiles } from "./awl";

const OTHER_KEY = "sk-test-another-openai-account";
let fx: Awaited<ReturnType<typeof e2eFixture>>;
beforeEach(async () => (fx = await e2eFixture({ otherOpenaiKeys: [OTHER_KEY] })));
afterEach(() => fx.cleanup());

const RESPONSES = { AWL_OPENAI_API: "responses" };
const openai = ["--provider", "openai", "--model", "gpt-5-mini"];
const entries = async () => (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l));
const assistants = async () => (await entries()).filter((e) => e.type === "message" && e.message.role === "assistant").map((e) => e.message);

let calls = 0;
/** Rounds of reasoning, each ending in a call to read (ids unique in the session, as the APIs require), then an answer. */
function toolLoop(rounds: number): Reply[] {
  const replies: Reply[] = Array.from({ length: rounds }, (_, i) => ({
    blocks: [{ type: "thinking", thinking: `Round ${i}: read the notes again.` }, { type: "toolUse", id: `call_${calls++}`, name: "read", input: { path: "notes.txt" } }],
  }));
  return [...replies, { blocks: [{ type: "text", text: "All read." }] }];
}

test("a 10-round tool loop with reasoning: each round's encrypted reasoning goes back in the next, no ids, one cache key", async () => {
  await Bun.write(join(fx.project, "notes.txt"), "remember the milk\n");
  fx.server.reply(...toolLoop(10));
  const run = await fx.run(["-p", "read the notes ten times", "--thinking", ...openai], { env: RESPONSES });
  expect(run).toMatchObject({ code: 0, stdout: "All read.\n" });
  const requests = fx.server.requests;
  expect(requests.map((r) => `${r.path} ${r.status}`)).toEqual(Array(11).fill("/v1/responses 200"));

  const messages = await assistants();
  expect(messages.map((m) => m.api)).toEqual(Array(11).fill("openai-responses"));
  const issued = messages.slice(0, 10).map((m) => m.content[0]);
  for (const block of issued) expect(block).toMatchObject({ type: "thinking", signature: expect.any(String), origin: { api: "openai-responses", fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/) } });
  for (const [i, request] of requests.entries()) {
    const reasoning = request.body.input.filter((item: any) => item.type === "reasoning");
    expect(reasoning.map((item: any) => item.encrypted_content)).toEqual(issued.slice(0, i).map((b) => b.signature));
    for (const item of reasoning) expect(item.id).toBeUndefined();
  }
  const sessionId = (await entries())[0].id;
  expect(new Set(requests.map((r) => r.body.prompt_cache_key))).toEqual(new Set([sessionId]));
  expect(JSON.stringify(await entries())).not.toContain(fx.server.openaiKey);
});

test("resumed, switched to Anthropic, to a compatible Chat Completions server, back, then to another OpenAI key: every request accepted, no reasoning refused", async () => {
  await Bun.write(join(fx.project, "notes.txt"), "remember the milk\n");
  fx.server.reply(...toolLoop(2));
  expect((await fx.run(["-p", "read twice", "--thinking", ...openai], { env: RESPONSES })).code).toBe(0);

  fx.server.reply(...toolLoop(1));
  const resumed = await fx.run(["-p", "once more", "--resume", "--thinking", ...openai], { env: RESPONSES });
  fx.server.reply({ blocks: [{ type: "thinking", thinking: "Claude thinks." }, { type: "toolUse", name: "read", input: { path: "notes.txt" } }] }, { blocks: [{ type: "text", text: "Claude read it." }] });
  const claude = await fx.run(["-p", "you now", "--resume", "--thinking", "--provider", "anthropic", "--model", "claude-sonnet-4-5"]);
  fx.server.reply(...toolLoop(1));
  const chat = await fx.run(["-p", "a local model now", "--resume", "--thinking", ...openai], { env: { AWL_OPENAI_API: "chat" } });
  fx.server.reply(...toolLoop(1));
  const back = await fx.run(["-p", "back to you", "--resume", "--thinking", ...openai], { env: RESPONSES });
  fx.server.reply(...toolLoop(1));
  const otherKey = await fx.run(["-p", "new account", "--resume", "--thinking", ...openai], { env: { ...RESPONSES, OPENAI_API_KEY: OTHER_KEY } });
  fx.server.reply({ blocks: [{ type: "thinking", thinking: "Claude again." }, { type: "text", text: "Back with Claude." }] });
  const claudeAgain = await fx.run(["-p", "and Claude to finish", "--resume", "--thinking", "--provider", "anthropic", "--model", "claude-sonnet-4-5"]);

  for (const run of [resumed, claude, chat, back, otherKey, claudeAgain]) expect(run).toMatchObject({ code: 0, stderr: expect.not.stringMatching(/refused|error/i) });
  expect(fx.server.requests.map((r) => r.status)).toEqual(Array(fx.server.requests.length).fill(200));
  const sent = (path: string) => fx.server.requests.filter((r) => r.path === path);
  expect(sent("/v1/chat/completions")).toHaveLength(2);
  // Anthropic got its own thinking back, and no OpenAI reasoning.
  const toClaude = sent("/v1/messages").at(-1)!;
  expect(toClaude.rawBody).toContain("Claude thinks.");
  expect(toClaude.rawBody).not.toContain("read the notes again");
  // After the key switch, none of the first key's reasoning went out.
  const afterSwitch = sent("/v1/responses").slice(-2);
  expect(afterSwitch[0]!.body.input.filter((item: any) => item.type === "reasoning")).toEqual([]);
  expect(afterSwitch[1]!.body.input.filter((item: any) => item.type === "reasoning")).toHaveLength(1);
  const fromClaude = (await assistants()).find((m) => m.api === "anthropic-messages")!;
  expect(fromClaude.content[0]).toMatchObject({ type: "thinking", thinking: "Claude thinks.", origin: { api: "anthropic-messages" } });
  expect((await assistants()).map((m) => m.api)).toEqual([
    ...Array(3).fill("openai-responses"), ...Array(2).fill("openai-responses"), "anthropic-messages", "anthropic-messages", ...Array(2).fill("openai-chat"), ...Array(2).fill("openai-responses"), ...Array(2).fill("openai-responses"), "anthropic-messages",
  ]);
  // Claude's own thinking from before went back to it again; OpenAI's never did.
  const last = sent("/v1/messages").at(-1)!;
  expect(last.rawBody).toContain("Claude thinks.");
  expect(last.rawBody).not.toContain("read the notes again");
});

test("response.incomplete in the middle of a function call runs no tool and leaves a truthful entry", async () => {
  const target = join(fx.project, "gone");
  fx.server.reply({ blocks: [{ type: "text", text: "Creating it." }, { type: "toolUse", id: "call_cut", name: "bash", input: `{"command":"touch ${target} && rm -` }], stop: "length" });
  const run = await fx.run(["-p", "make a file", ...openai], { env: RESPONSES });
  expect(fx.server.requests).toHaveLength(1);
  expect(existsSync(target)).toBe(false);
  expect(run.stdout).toContain("Creating it.");
  const [message] = await assistants();
  expect(message).toMatchObject({ api: "openai-responses", stopReason: "length" });
  expect(message.content[1]).toMatchObject({ type: "toolUse", id: "call_cut", input: `{"command":"touch ${target} && rm -` });
});

test("over a 20-request tool loop, the prompt cache serves at least 80% of the input", async () => {
  await Bun.write(join(fx.project, "notes.txt"), "remember the milk\n");
  fx.server.reply(...toolLoop(19));
  expect((await fx.run(["-p", "read the notes many times", "--thinking", ...openai], { env: RESPONSES })).code).toBe(0);
  const usage = (await assistants()).map((m) => m.usage);
  expect(usage).toHaveLength(20);
  const input = usage.reduce((sum, u) => sum + u.input + (u.cacheRead ?? 0), 0);
  const cached = usage.reduce((sum, u) => sum + (u.cacheRead ?? 0), 0);
  console.log(`prompt cache: ${cached} of ${input} input tokens read from the cache (${((100 * cached) / input).toFixed(1)}%)`);
  expect(cached / input).toBeGreaterThanOrEqual(0.8);
});

test("an AWL_OPENAI_API awl does not know is a usage error: one line, exit 2, nothing sent", async () => {
  const run = await fx.run(["-p", "hi", ...openai], { env: { AWL_OPENAI_API: "completions" } });
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr).toContain('AWL_OPENAI_API must be responses or chat, not "completions"');
  expect(fx.server.requests).toHaveLength(0);
});

test("encrypted reasoning goes back only to the model that made it: after --model changes it stays home, and comes back with its model", async () => {
  await Bun.write(join(fx.project, "notes.txt"), "remember the milk\n");
  fx.server.reply(...toolLoop(1));
  expect((await fx.run(["-p", "read it", "--thinking", ...openai], { env: RESPONSES })).code).toBe(0);
  const made = (await assistants())[0].content[0].signature;

  fx.server.reply(...toolLoop(1));
  const before = fx.server.requests.length;
  const other = await fx.run(["-p", "again", "--resume", "--thinking", "--provider", "openai", "--model", "gpt-5"], { env: RESPONSES });
  expect(other.code).toBe(0);
  expect(other.stderr).not.toMatch(/reasoning/i);
  const sent = fx.server.requests.slice(before);
  // Every request taken at once: none refused for reasoning another model made, none sent again without it.
  expect(sent.map((r) => r.status)).toEqual([200, 200]);
  expect(JSON.stringify(sent[0]!.body.input)).not.toContain(made);
  const own = sent[1]!.body.input.filter((item: any) => item.type === "reasoning").map((item: any) => item.encrypted_content);
  expect(own).toEqual([(await assistants())[2].content[0].signature]);

  fx.server.reply({});
  const back = fx.server.requests.length;
  expect((await fx.run(["-p", "and you", "--resume", "--thinking", ...openai], { env: RESPONSES })).code).toBe(0);
  expect(fx.server.requests[back]!.status).toBe(200);
  expect(fx.server.requests[back]!.body.input.filter((item: any) => item.type === "reasoning").map((item: any) => item.encrypted_content)).toEqual([made]);
});

test("a compaction's summary request carries the session's prompt_cache_key like every other request", async () => {
  await fx.cleanup();
  fx = await e2eFixture({ contextWindow: 5000, minCacheableTokens: 256 });
  // Asked of the conversation itself (its own prefix, so its cache) or of its transcript.
  const isSummary = (r: { rawBody: string }) => /the conversation is about to be compacted|You compact a coding session/.test(r.rawBody);
  fx.server.respond = (r) => (isSummary(r) ? { blocks: [{ type: "text", text: "## Goal\nTalk." }], usage: { input: 100, output: 100 } } : { blocks: [{ type: "text", text: "Noted. ".repeat(200) }] });
  for (let t = 0; t < 20 && !fx.server.requests.some(isSummary); t++) {
    const run = await fx.run(["-p", `turn ${t}: ${"say something long ".repeat(40)}`, ...(t ? ["--resume"] : []), ...openai], { env: { ...RESPONSES, AWL_CONTEXT_WINDOW: "5000", AWL_TITLES: "off" } });
    expect(run.code).toBe(0);
  }
  const summaries = fx.server.requests.filter(isSummary);
  expect(summaries.length).toBeGreaterThan(0);
  const sessionId = (await entries())[0].id;
  for (const r of fx.server.requests) expect(r.body.prompt_cache_key).toBe(sessionId);
}, 60_000);
