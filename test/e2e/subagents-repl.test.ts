// Subagents in a real terminal (tmux), through the compiled binary
// (docs/subagents.md): while children work, a row each under the output
// says what each is doing; when one ends, a row under its call says how; a
// child's question names it; Ctrl+O lists the turn's children and shows each
// one's whole transcript in turn; and
// a resumed session's transcript shows the same rows.
import { describe, expect, test } from "bun:test";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { subagentModel, taskCall } from "../support/subagent-model";

const fx = useE2eFixture();
const term = useTerminal();

describe.skipIf(!hasTmux)("subagents in the REPL", () => {
  test("a row per child while it works, how it ended under its call, its question labelled, its transcript on Ctrl+O and after --resume", async () => {
    const slow = Array.from({ length: 20 }, (_, i) => `w${i}`).join(" ");
    fx.server.respond = subagentModel([
      {
        blocks: [
          taskCall("survey the notes", { calls: [["read", { path: ".keep" }]], answer: `survey says ${slow}`, delayMs: 15 }),
          taskCall("tidy the build", { calls: [["bash", { command: "rm -rf build" }]], answer: "tidied" }),
        ],
      },
      { blocks: [{ type: "text", text: "both helpers are done" }] },
    ]);
    term.start([AWL, "--approve", "ask"], { cwd: fx.project, env: { ...fx.env, AWL_APPROVE: "" }, width: 120, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("use two helpers");
    // The question names the asking child; once answered, the slow child's row shows under the output as it streams.
    await term.waitFor(/\[subagent: tidy the build\] bash rm -rf build/);
    term.keys("y");
    await term.waitFor(/⎿ survey the notes: Answering… · 1 tool call · \d+s/);
    const done = await term.waitFor(/both helpers are done/);
    expect(done).toMatch(/● task survey the notes\n\s+⎿ subagent done after 1 tool call \(ctrl\+o shows all\)/);
    expect(done).toMatch(/⎿ subagent done after 1 tool call/);
    // Ctrl+O: the turn in full, with the list of its subagents; again: each one's whole transcript in turn.
    term.keys("C-o");
    const listed = await term.waitFor(/Subagents of this turn[^\n]*\n\s+1\. survey the notes\n\s+2\. tidy the build/);
    expect(listed).not.toContain("its whole transcript:");
    term.keys("C-o");
    const first = await term.waitFor(/Subagent 1 of 2: survey the notes, its whole transcript:[\s\S]*Ctrl\+O again shows the next subagent/);
    expect(first).toMatch(/● read \.keep\n[\s\S]*survey says w0 w1/);
    term.keys("C-o");
    await term.waitFor(/Subagent 2 of 2: tidy the build, its whole transcript:[\s\S]*● bash rm -rf build[\s\S]*Ctrl\+O again shows the turn/);
    term.send("/exit");
    await Bun.sleep(100);
    term.close();

    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env, width: 120, height: 40 });
    const resumed = await term.waitFor(/both helpers are done[\s\S]*›/);
    expect(resumed).toMatch(/● task survey the notes\n\s+⎿ subagent done after 1 tool call/);
    expect(resumed).toMatch(/● task tidy the build\n\s+⎿ subagent done after 1 tool call/);
  }, 90_000);
});
