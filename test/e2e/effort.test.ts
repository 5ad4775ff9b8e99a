// --effort on the command line, through the compiled binary: what each model
// is sent, and a level the model cannot take refused before any request.
import { describe, expect, test } from "bun:test";
import { sessionFiles, useE2eFixture } from "./awl";

const fx = useE2eFixture();

describe("awl -p --effort", () => {
  test("a level the model does not take: one line naming the levels it does, exit 2, no request, no session", async () => {
    const run = await fx.run(["-p", "hi", "--model", "claude-opus-4-5", "--effort", "max"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("awl: claude-opus-4-5 does not take effort max: it takes low, medium, high (see awl --help)");
    expect(fx.server.requests).toHaveLength(0);
    expect(sessionFiles(fx.sessions)).toEqual([]);
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
