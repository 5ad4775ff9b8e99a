// Today's models, end to end with dist/awl: the default taken from the
// provider's catalogue (or the built-in table when there is none), a retired
// model said in one line with the newest of its family, `awl models`, and a
// resumed session whose model is gone.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, e2eFixture, sessionFiles, type E2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { RETIRED_ANTHROPIC, TODAYS_ANTHROPIC, type ServedModel, type TestServerOptions } from "../support/server";
import { readLog } from "../support/session-log";

/** A Sonnet newer than any awl was built with: only the catalogue can know it. */
const NEWER_SONNET: ServedModel = { id: "claude-sonnet-6", displayName: "Claude Sonnet 6", created: "2026-11-24", maxInputTokens: 2_000_000, maxOutputTokens: 128_000, thinkingTypes: ["adaptive"], effortLevels: ["low", "medium", "high", "max"] };
const TODAY: TestServerOptions = { models: { anthropic: [...TODAYS_ANTHROPIC, NEWER_SONNET] }, retiredModels: RETIRED_ANTHROPIC };

let fx: E2eFixture | undefined;
const term = useTerminal();
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

/** Only ANTHROPIC_API_KEY (and the server's address) set, as on a fresh machine. */
async function fresh(options: TestServerOptions) {
  fx = await e2eFixture(options);
  fx.env.OPENAI_API_KEY = "";
  fx.env.OPENAI_BASE_URL = "";
  return fx;
}

const lines = async (file: string) => readLog(file);

describe("the default model", () => {
  test("with only ANTHROPIC_API_KEY set, awl -p uses the newest Sonnet the catalogue lists, and the session header names it", async () => {
    const f = await fresh(TODAY);
    f.server.reply({ blocks: [{ type: "text", text: "hello" }] });
    const run = await f.run(["-p", "hi"]);
    expect(run).toMatchObject({ code: 0, stdout: "hello\n", stderr: "" });
    expect(f.server.requests[0]!.body.model).toBe("claude-sonnet-6");
    expect(f.server.modelRequests.map((r) => r.path)).toEqual(["/v1/models"]);
    const [header] = await lines(sessionFiles(f.sessions)[0]!);
    expect(header).toMatchObject({ type: "session", provider: "anthropic", model: "claude-sonnet-6" });

    // The next run reads the cache: no second catalogue request.
    f.server.reply({ blocks: [{ type: "text", text: "again" }] });
    expect((await f.run(["-p", "hi"])).code).toBe(0);
    expect(f.server.modelRequests).toHaveLength(1);
    expect(f.server.requests[1]!.body.model).toBe("claude-sonnet-6");
  });

  test("with the catalogue unreachable, the built-in default (a current model) works, and nothing is said about it", async () => {
    const f = await fresh({ retiredModels: RETIRED_ANTHROPIC }); // no models endpoint: 404
    f.server.reply({ blocks: [{ type: "text", text: "hello" }] });
    const run = await f.run(["-p", "hi"]);
    expect(run).toMatchObject({ code: 0, stdout: "hello\n", stderr: "" });
    expect(f.server.requests[0]!.body.model).toBe("claude-sonnet-5-5");
  });
});

describe("a model the provider no longer serves", () => {
  test("awl -p --model claude-sonnet-4-5 is one line naming newer Sonnets and --model, exit 1; the log holds the turn and its error", async () => {
    const f = await fresh(TODAY);
    const run = await f.run(["-p", "hi", "--model", "claude-sonnet-4-5"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const id = (JSON.parse((await Bun.file(sessionFiles(f.sessions)[0]!).text()).split("\n")[0]!).id as string).slice(0, 8);
    expect(run.stderr).toBe(
      `awl: Anthropic does not serve the model "claude-sonnet-4-5" (404: retired, or never an id): the newest of its family: claude-sonnet-6, claude-sonnet-5-5, claude-sonnet-5; the prompt is saved: awl -p --resume ${id} --model claude-sonnet-6 sends it\n`,
    );
    const entries = await lines(sessionFiles(f.sessions)[0]!);
    expect(entries.map((e) => e.message?.role ?? e.type)).toEqual(["session", "system", "user", "session_info", "assistant"]);
    expect(entries[3]).toMatchObject({ title: "hi", source: "auto" }); // the first prompt's title, written at once
    expect(entries[4].message).toMatchObject({ model: "claude-sonnet-4-5", stopReason: "error" });
    expect(f.server.requests).toHaveLength(1); // awl never switches models by itself
  });

  test("following that advice sends the saved prompt once, to the new model, and writes no second copy of it", async () => {
    const f = await fresh(TODAY);
    const refused = await f.run(["-p", "again", "--model", "claude-sonnet-4-5"]);
    const advice = /awl -p --resume (\S+) --model (\S+) sends it/.exec(refused.stderr)!;
    f.server.reply({ blocks: [{ type: "text", text: "answered" }] });
    const sent = await f.run(["-p", "--resume", advice[1]!, "--model", advice[2]!]);
    expect(sent).toMatchObject({ code: 0, stdout: "answered\n" });
    const request = f.server.requests.at(-1)!.body as { model: string; messages: { role: string; content: { type: string; text?: string }[] }[] };
    expect(request.model).toBe("claude-sonnet-6");
    expect(request.messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])))).toEqual(["again"]);
    const entries = await lines(sessionFiles(f.sessions)[0]!);
    expect(entries.filter((e) => e.message?.role === "user").length).toBe(1);
  });

  test("resuming a session whose model is gone says so before any request: GET /v1/models/{id} answered 404", async () => {
    const f = await fresh({ models: TODAY.models }); // claude-sonnet-4-5 still served when the session starts
    f.server.reply({ blocks: [{ type: "text", text: "first" }] });
    expect((await f.run(["-p", "hi", "--model", "claude-sonnet-4-5"])).code).toBe(0);
    const resumed = await f.run(["-p", "more", "--resume"]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toBe(
      "awl: This session's model, claude-sonnet-4-5, is no longer served by anthropic: the newest of its family: claude-sonnet-6, claude-sonnet-5-5, claude-sonnet-5; switch with --model claude-sonnet-6\n",
    );
    expect(f.server.modelRequests.at(-1)).toMatchObject({ path: "/v1/models/claude-sonnet-4-5", status: 404 });
    expect(f.server.requests).toHaveLength(1);
  });

  test("a model missing from the list but served under an alias is not gone", async () => {
    const f = await fresh(TODAY);
    f.server.reply({ blocks: [{ type: "text", text: "first" }] }, { blocks: [{ type: "text", text: "second" }] });
    expect((await f.run(["-p", "hi", "--model", "claude-haiku-4-5"])).code).toBe(0);
    const resumed = await f.run(["-p", "more", "--resume"]);
    expect(resumed).toMatchObject({ code: 0, stdout: "second\n" });
    expect(f.server.modelRequests.at(-1)).toMatchObject({ path: "/v1/models/claude-haiku-4-5", status: 200 });
  });
});

describe("awl models", () => {
  test("lists the catalogue newest first with windows, marks the default, and says where the list came from", async () => {
    const f = await fresh(TODAY);
    const run = await f.run(["models"]);
    expect(run.code).toBe(0);
    const [first, ...rows] = run.stdout.trimEnd().split("\n");
    expect(first).toBe(`anthropic's models, newest first, from 127.0.0.1:${new URL(f.server.url).port}, fetched just now:`);
    expect(rows[0]).toMatch(/^ {2}claude-sonnet-6 +Claude Sonnet 6 {2}2026-11-24 {2}window 2\.0M · output 128k {2}\(default\)$/);
    expect(rows.map((r) => r.trim().split(" ")[0])).toEqual(["claude-sonnet-6", "claude-sonnet-5-5", "claude-opus-5-5", "claude-sonnet-5", "claude-sonnet-4-6", "claude-haiku-4-5-20251001"]);

    const json = JSON.parse((await f.run(["models", "--json"])).stdout);
    expect(json).toMatchObject({ provider: "anthropic", fromProvider: true, default: "claude-sonnet-6" });
    expect(json.models[0]).toMatchObject({ id: "claude-sonnet-6", maxInputTokens: 2_000_000, maxOutputTokens: 128_000, thinkingTypes: ["adaptive"] });
  });

  test("with no models endpoint, says that the built-in table stands in, and why", async () => {
    const f = await fresh({});
    const run = await f.run(["models", "--provider", "openai"], { env: { OPENAI_BASE_URL: f.server.openaiUrl } });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(
      `openai's models, newest first, built into awl (the provider's list could not be used: 127.0.0.1:${new URL(f.server.url).port} has no models endpoint (404), just now):`,
    );
    expect(run.stdout).toContain("gpt-5.4-mini");
  });
});

describe.skipIf(!hasTmux)("models in the REPL", () => {
  test("the banner says the model is the default; /model lists the catalogue with windows, Tab completes an id, an id the list lacks is refused with the nearest it has", async () => {
    const f = await fresh(TODAY);
    term.start([AWL], { cwd: f.project, env: f.env, width: 240 });
    let screen = await term.waitFor(/\/help for commands/);
    expect(screen).toContain("anthropic/claude-sonnet-6 (default)");

    // /model alone is a picker: newest first, the model in use marked, each row with its limits and efforts; Esc leaves it.
    term.type("/model");
    term.keys("Enter");
    screen = await term.waitFor(/anthropic's models, newest first/);
    expect(screen).toMatch(/claude-sonnet-6 +Claude Sonnet 6 · window 2\.0M · output 128k · effort [a-z,–]+ \(in use\)/);
    term.keys("Escape");
    await term.waitFor(/\n›\s*$/);

    term.type("/model claude-op");
    term.keys("Tab");
    await term.waitFor(/› \/model claude-opus-5-5\s*$/m);
    term.keys("Enter");
    await term.waitFor(/Using anthropic\/claude-opus-5-5 from the next prompt on\./);

    // The server answered a list: an id it lacks is refused with the nearest it has, and the model stays.
    term.type("/model claude-sonet-5-5");
    term.keys("Enter");
    await term.waitFor(/anthropic does not list claude-sonet-5-5: did you mean claude-sonnet-5-5\? \(\/model claude-sonnet-5-5\)\s+Still using anthropic\/claude-opus-5-5\./);
    term.type("/model claude-sonnet-4-5");
    term.keys("Enter");
    await term.waitFor(/anthropic does not list claude-sonnet-4-5: did you mean claude-sonnet-6, claude-sonnet-5-5, claude-sonnet-5\? \(\/model claude-sonnet-6\)\s+Still using anthropic\/claude-opus-5-5\./);
    // An alias of a dated snapshot the list shows is taken.
    term.type("/model claude-haiku-4-5");
    term.keys("Enter");
    await term.waitFor(/Using anthropic\/claude-haiku-4-5 from the next prompt on/);
    expect(f.server.requests).toHaveLength(0);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("/model, typing opus and Enter switches to the newest Opus; /effort offers only what it takes; /model words asks when several match", async () => {
    const f = await fresh(TODAY);
    term.start([AWL], { cwd: f.project, env: f.env, width: 200, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("/model");
    await term.waitFor(/anthropic's models, newest first/);
    term.type("opus");
    await term.waitFor(/Search: opus.*\n│ {2}● claude-opus-5-5 /);
    term.keys("Enter");
    await term.waitFor(/Using anthropic\/claude-opus-5-5 from the next prompt on/);
    term.send("/effort");
    const efforts = await term.waitFor(/Effort levels claude-opus-5-5 takes/);
    expect(efforts).toMatch(/● off\n│ {2}○ low\n│ {2}○ medium\n│ {2}○ high\n│ {2}○ xhigh\n│ {2}○ max\n/);
    term.keys("Escape");
    await term.waitFor(/\n›\s*$/);
    // Claude Sonnet 5 takes no xhigh: its picker does not offer it.
    term.send("/model claude-sonnet-5");
    await term.waitFor(/Using anthropic\/claude-sonnet-5 from/);
    term.send("/effort");
    expect(await term.waitFor(/Effort levels claude-sonnet-5 takes[\s\S]*○ max\n/)).toMatch(/○ high\n│ {2}○ max\n/);
    term.keys("Escape");
    await term.waitFor(/\n›\s*$/);
    term.send("/model sonnet");
    const asked = await term.waitFor(/Which one\?/);
    expect(asked).toMatch(/\d+ models match sonnet, newest first: claude-sonnet-6, claude-sonnet-5-5/);
    term.send("/model sonnet 6");
    await term.waitFor(/Using anthropic\/claude-sonnet-6 from the next prompt on/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("a list more than a minute old is asked for again before /model judges an id: a model released since is taken", async () => {
    const options: TestServerOptions = { models: { anthropic: [...TODAYS_ANTHROPIC, NEWER_SONNET] }, retiredModels: RETIRED_ANTHROPIC };
    const f = await fresh(options);
    expect((await f.run(["models"])).code).toBe(0);
    const [cache] = readdirSync(join(f.home, ".cache/awl/models")).map((name) => join(f.home, ".cache/awl/models", name));
    const cached = JSON.parse(readFileSync(cache!, "utf8"));
    writeFileSync(cache!, JSON.stringify({ ...cached, fetchedAt: Date.now() - 5 * 60_000 })); // five minutes old: fresh enough to start with
    options.models!.anthropic!.push({ id: "claude-sonnet-7", displayName: "Claude Sonnet 7", created: "2026-12-06", maxInputTokens: 2_000_000, maxOutputTokens: 128_000, thinkingTypes: ["adaptive"] });
    term.start([AWL], { cwd: f.project, env: f.env, width: 200 });
    await term.waitFor(/\/help for commands/);
    const asked = f.server.modelRequests.length;
    term.type("/model claude-sonnet-7");
    term.keys("Enter");
    await term.waitFor(/Using anthropic\/claude-sonnet-7 from the next prompt on/);
    expect(f.server.modelRequests.length).toBeGreaterThan(asked);
  });

  test("a prompt the provider refused for its model (404) stays in the log, not in the input box, and goes once with the next prompt", async () => {
    const f = await fresh(TODAY);
    term.start([AWL, "--model", "claude-sonnet-4-5"], { cwd: f.project, env: f.env, width: 240 });
    await term.waitFor(/\/help for commands/);
    term.type("still there?");
    term.keys("Enter");
    const screen = await term.waitFor(/switch with \/model claude-sonnet-6[\s\S]*No answer: this prompt stays in the conversation/);
    expect(screen).toContain('Anthropic does not serve the model "claude-sonnet-4-5" (404: retired, or never an id)');
    // Putting it back too would send it twice.
    await term.waitFor(/›\s*$/);
    expect(term.screen()).not.toMatch(/› still there\?\s*$/);
    term.type("/model claude-sonnet-6");
    term.keys("Enter");
    await term.waitFor(/Using anthropic\/claude-sonnet-6 from the next prompt on\./);
    f.server.reply({ blocks: [{ type: "text", text: "Yes." }] });
    term.type("and now?");
    term.keys("Enter");
    await term.waitFor(/Yes\./);
    const texts = (f.server.requests.at(-1)!.body as { messages: { content: { type: string; text?: string }[] }[] }).messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
    expect(texts).toEqual(["still there?", "and now?"]);
    const logged = (await lines(sessionFiles(f.sessions)[0]!)).filter((e) => e.message?.role === "user");
    expect(logged).toHaveLength(2);
  });
});
