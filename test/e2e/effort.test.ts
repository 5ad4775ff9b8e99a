// --effort through the compiled binary: what each model is sent, a level the
// model cannot take refused before any request, and in the REPL (tmux) the
// banner, the usage line and /effort.
import { describe, expect, test } from "bun:test";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();

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
});
