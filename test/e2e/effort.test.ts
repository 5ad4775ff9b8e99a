// --effort through the compiled binary: what each model is sent, a level the
// model cannot take refused before any request, and in the REPL (tmux) the
// banner, the usage line and /effort.
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

// claude-opus-7: a model newer than awl's table that thinks always (the API's refusal is how awl learns it).
const fx = useE2eFixture({ alwaysThinking: ["claude-opus-7"] });

describe("awl -p --effort", () => {
  test("a level the model does not take: one line naming the levels it does, exit 2, no request, no session", async () => {
    const run = await fx.run(["-p", "hi", "--model", "claude-opus-4-5", "--effort", "max"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("awl: claude-opus-4-5 does not take effort max: it takes low, medium, high (see awl --help)");
    expect(fx.server.requests).toHaveLength(0);
    expect(sessionFiles(fx.sessions)).toEqual([]);
    // The same before the REPL starts.
    const repl = await fx.run(["--model", "claude-fable-5", "--effort", "off"]);
    expect([repl.code, repl.stderr.trim()]).toEqual([2, "awl: claude-fable-5 always thinks: effort off is not possible (low thinks least) (see awl --help)"]);
  });

  test("AWL_EFFORT and --thinking: adaptive thinking to an adaptive model, the effort stamped on the prompt's entry", async () => {
    fx.server.reply({ blocks: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "hi" }] }, { blocks: [{ type: "text", text: "again" }] });
    expect((await fx.run(["-p", "hi", "--model", "claude-opus-4-7"], { env: { AWL_EFFORT: "low" } })).code).toBe(0);
    expect((await fx.run(["-p", "again", "--resume", "--thinking"])).code).toBe(0);
    const [first, second] = fx.server.requests;
    expect([first!.body.thinking, first!.body.output_config]).toEqual([{ type: "adaptive", display: "summarized" }, { effort: "low" }]);
    expect([second!.status, second!.body.output_config]).toEqual([200, { effort: "high" }]);
    const lines = (await Bun.file(sessionFiles(fx.sessions)[0]!).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.message?.role === "user").map((l) => l.effort)).toEqual(["low", "high"]);
  });
});

describe("off on a model that thinks always and that awl's table does not know", () => {
  test("-p: the API's refusal is learnt and said as a known model's is (one line, exit 2, no second request); the prompt it went out with is saved, and the line says how to send it", async () => {
    const run = await fx.run(["-p", "hi", "--model", "claude-opus-7", "--effort", "off"]);
    const id = (JSON.parse(readFileSync(sessionFiles(fx.sessions)[0]!, "utf8").split("\n")[0]!).id as string).slice(0, 8);
    expect([run.code, run.stderr.trim()]).toEqual([2, `awl: claude-opus-7 always thinks: effort off is not possible (low thinks least); the prompt is saved: awl -p --resume ${id} --effort <level> sends it`]);
    expect(fx.server.requests.map((r) => [r.status, r.body.thinking?.type])).toEqual([[400, "disabled"]]);
    fx.server.reply({ blocks: [{ type: "text", text: "hello" }] });
    expect(await fx.run(["-p", "--resume", id, "--effort", "low"])).toMatchObject({ code: 0, stdout: "hello\n" });
    const sent = fx.server.requests.at(-1)!;
    expect([sent.status, sent.body.thinking?.type, sent.body.messages.flatMap((m: { content: { text?: string }[] }) => m.content.map((b) => b.text))]).toEqual([200, "enabled", ["hi"]]);
  });

  test("what the refusal taught is remembered by later runs: off is then refused before any request, as for a model awl knows", async () => {
    expect((await fx.run(["-p", "hi", "--model", "claude-opus-7", "--effort", "off"])).code).toBe(2);
    const again = await fx.run(["-p", "hi", "--model", "claude-opus-7", "--effort", "off"]);
    expect([again.code, again.stderr.trim()]).toEqual([2, "awl: claude-opus-7 always thinks: effort off is not possible (low thinks least) (see awl --help)"]);
    expect(fx.server.requests).toHaveLength(1); // the first run's, which taught it
    expect(sessionFiles(fx.sessions)).toHaveLength(1);
    const lessons = join(fx.home, ".cache/awl/models/thinking-lessons.json");
    expect([statSync(lessons).mode & 0o777, JSON.parse(readFileSync(lessons, "utf8"))]).toEqual([0o600, { "anthropic/claude-opus-7": { alwaysOn: true } }]);
    // The REPL starts knowing it too.
    const repl = await fx.run(["--model", "claude-opus-7", "--effort", "off"]);
    expect([repl.code, repl.stderr.trim()]).toEqual([2, "awl: claude-opus-7 always thinks: effort off is not possible (low thinks least) (see awl --help)"]);
  });
});

describe("the effort on resume", () => {
  test("a resumed session keeps the effort of its last prompt, as it keeps its model; --effort names another", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "one" }] }, { blocks: [{ type: "text", text: "two" }] }, { blocks: [{ type: "text", text: "three" }] });
    expect((await fx.run(["-p", "one", "--model", "claude-opus-4-7", "--effort", "low"])).code).toBe(0);
    expect((await fx.run(["-p", "two", "--resume"])).code).toBe(0);
    expect((await fx.run(["-p", "three", "--resume", "--effort", "high"])).code).toBe(0);
    expect(fx.server.requests.map((r) => [r.body.model, r.body.output_config])).toEqual([
      ["claude-opus-4-7", { effort: "low" }],
      ["claude-opus-4-7", { effort: "low" }],
      ["claude-opus-4-7", { effort: "high" }],
    ]);
  });
});

describe.skipIf(!hasTmux)("the effort in the REPL", () => {
  const term = useTerminal();

  test("the banner and the usage line show it; /effort changes it for the next prompt; a level the model lacks is one line", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "First." }] }, { blocks: [{ type: "text", text: "Second." }] });
    term.start([AWL, "--model", "claude-opus-4-5", "--effort", "medium"], { cwd: fx.project, env: fx.env, width: 160 });
    expect(await term.waitFor(/\/help for commands/)).toContain("effort: medium");
    term.type("one");
    term.keys("Enter");
    expect(await term.waitFor(/First\.[\s\S]*effort medium/)).toContain("effort medium");
    term.type("/effort max");
    term.keys("Enter");
    await term.waitFor(/does not take effort max: it takes low, medium, high; the effort stays medium/);
    term.type("/effort low");
    term.keys("Enter");
    await term.waitFor(/Effort low from the next prompt on/);
    term.type("two");
    term.keys("Enter");
    await term.waitFor(/Second\./);
    expect(fx.server.requests.map((r) => r.body.output_config)).toEqual([{ effort: "medium" }, { effort: "low" }]);
  });

  test("a refusal learnt from the API is remembered: /effort off is then refused at once, before any request", async () => {
    term.start([AWL, "--model", "claude-opus-7", "--effort", "off"], { cwd: fx.project, env: fx.env, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.type("hi");
    term.keys("Enter");
    // The prompt went out with the request that taught it: it stays in the log, not in the input box.
    await term.waitFor(/claude-opus-7 always thinks: effort off is not possible \(low thinks least\)\nNo answer: this prompt stays in the conversation[^\n]*\n›\s*$/);
    term.type("/effort low");
    term.keys("Enter");
    await term.waitFor(/Effort low from the next prompt on/);
    term.type("/effort off");
    term.keys("Enter");
    await term.waitFor(/always thinks: effort off is not possible \(low thinks least\); the effort stays low/);
    expect(fx.server.requests).toHaveLength(1);
  });

  test("/model says at once when the effort does not fit the new model; a prompt sent anyway goes back into the input box, unsent and not in the log", async () => {
    term.start([AWL, "--model", "claude-opus-4-7", "--effort", "max"], { cwd: fx.project, env: fx.env, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.type("/model claude-opus-4-5");
    term.keys("Enter");
    await term.waitFor(/Using anthropic\/claude-opus-4-5 from the next prompt on[\s\S]*claude-opus-4-5 does not take effort max: it takes low, medium, high/);
    term.type("hello there");
    term.keys("Enter");
    await term.waitFor(/your prompt is back in the input box, not sent/);
    await term.waitFor(/› hello there\s*$/);
    expect(term.screen()).not.toContain("No answer");
    expect(fx.server.requests).toHaveLength(0);
    const logged = sessionFiles(fx.sessions).flatMap((f) => readFileSync(f, "utf8").trim().split("\n")).filter((l) => l.includes("hello there"));
    expect(logged).toEqual([]);
  });
});
