// Subagents in a real terminal (tmux), through the compiled binary
// (docs/subagents.md): while children work, a row each under the output
// says what each is doing; when one ends, a row under its call says how; a
// child's question names it; Ctrl+O lists the turn's children and shows each
// one's whole transcript in turn; a child that ends while another's question
// is on screen says so above the question, never inside it; and a resumed
// session's transcript shows the same rows.
import { describe, expect, test } from "bun:test";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { childStep, subagentModel, taskCall } from "../support/subagent-model";

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

  test("a child that ends while another child's question is up shows above the question, which stays whole; every question goes once answered, and the rows are those --resume shows", async () => {
    fx.server.respond = subagentModel([
      {
        blocks: [
          taskCall("survey the notes", { calls: [["bash", { command: "touch one.txt" }]], answer: "surveyed" }),
          taskCall("count the files", { calls: [["read", { path: ".keep" }]], answer: "counted" }),
          taskCall("tidy the build", { calls: [["bash", { command: "touch two.txt" }]], answer: "tidied" }),
        ],
      },
      { blocks: [{ type: "text", text: "all three helpers are done" }] },
    ]);
    // What each child does waits on what the screen shows, not on time: the one that reads ends only once the first question
    // is up, the second asker asks only then (so its question waits its turn), and the first asker ends only once the second question is up.
    const firstAsked = Promise.withResolvers<void>();
    const secondAsked = Promise.withResolvers<void>();
    fx.server.onRequest = async (request) => {
      const child = childStep(request);
      if (!child) return;
      const { answer } = child.script;
      if ((answer === "counted" && child.done === 1) || (answer === "tidied" && child.done === 0)) await firstAsked.promise;
      if (answer === "surveyed" && child.done === 1) await secondAsked.promise;
    };
    term.start([AWL, "--approve", "ask"], { cwd: fx.project, env: { ...fx.env, AWL_APPROVE: "" }, width: 120, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("use three helpers");

    const first = /● \[subagent: survey the notes\] bash touch one\.txt\n  Run it\?/;
    await term.waitFor(first);
    firstAsked.resolve();
    // The reader ends under the question: its rows go above it, and the question is drawn again, whole, under them.
    const ended = await term.waitFor(/⎿ subagent done/);
    expect(ended).toMatch(/● task count the files\n\s+⎿ subagent done after 1 tool call[^\n]*\n(?:.*\n)*?● \[subagent: survey the notes\] bash touch one\.txt\n  Run it\?[\s\S]*Esc stop\s*$/);
    expect(ended).not.toMatch(/Esc stop *\S/);
    term.keys("y");

    const second = await term.waitFor(/● \[subagent: tidy the build\] bash touch two\.txt\n  Run it\?/);
    expect(second).not.toContain("[subagent: survey the notes]"); // the answered question is gone
    secondAsked.resolve();
    const both = await term.waitFor(/● task survey the notes\n\s+⎿ subagent done/);
    expect(both).toMatch(/● task survey the notes\n\s+⎿ subagent done after 1 tool call[^\n]*\n(?:.*\n)*?● \[subagent: tidy the build\] bash touch two\.txt\n  Run it\?[\s\S]*Esc stop\s*$/);
    expect(both).not.toMatch(/Esc stop *\S/);
    term.keys("y");

    await term.waitFor(/all three helpers are done[\s\S]*›/);
    const live = term.history();
    expect(live).not.toContain("Run it?"); // both answered questions are erased alike
    const turn = live.slice(live.indexOf("use three helpers"));
    // Each child's row saying how it ended, and its answer's, whatever question was up when it ended.
    const resultRows = (text: string) => text.split("\n").filter((row) => row.includes("⎿")).map((row) => row.trim()).sort();
    const rows = resultRows(turn);
    expect(rows.filter((row) => row === "⎿ subagent done after 1 tool call (ctrl+o shows all)")).toHaveLength(3);
    for (const answer of ["counted", "surveyed", "tidied"]) expect(rows.filter((row) => row.startsWith(`⎿ ${answer} (last result:`))).toHaveLength(1);
    term.send("/exit");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env, width: 120, height: 40 });
    const resumed = await term.waitFor(/all three helpers are done[\s\S]*›/);
    expect(resultRows(resumed.slice(resumed.indexOf("use three helpers")))).toEqual(rows);
  }, 90_000);
});
