// /rewind (and Esc Esc), /tree, /label and /fork in a real terminal (tmux),
// through the compiled binary: a move appends, the prompt comes back to edit,
// the next request sends exactly the path to the new leaf, and a kill -9
// after a move resumes from it.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
/** Every text block a request carried, in order. */
const sentTexts = (request: { body: any }) => request.body.messages.flatMap((m: any) => m.content.flatMap((b: any) => (b.type === "text" ? [b.text] : [])));

function send(line: string): void {
  term.type(line);
  term.keys("Enter");
}

async function threeTurns(width = 140): Promise<void> {
  fx.server.reply(text("answer one"), text("answer two"), text("answer three"));
  term.start([AWL], { cwd: fx.project, env: fx.env, width, height: 40 });
  await term.waitFor(/\/help for commands/);
  for (const [prompt, answer] of [["prompt one", "answer one"], ["prompt two", "answer two"], ["prompt three", "answer three"]]) {
    send(prompt!);
    await term.waitFor(new RegExp(answer!));
  }
}

describe.skipIf(!hasTmux)("going back in the REPL", () => {
  test("Esc Esc lists the prompts newest first; choosing one goes back before it and gives it back to edit; the next request sends only that path", async () => {
    await threeTurns();
    const file = sessionFiles(fx.sessions)[0]!;
    const before = readFileSync(file);
    term.keys("Escape");
    await Bun.sleep(100); // a lone Esc is told from the start of a key sequence by the pause after it
    term.keys("Escape");
    const screen = await term.waitFor(/Go back to before which prompt[\s\S]*prompt one/);
    const list = screen.slice(screen.indexOf("Go back to before which prompt"));
    expect(list.indexOf("prompt three")).toBeLessThan(list.indexOf("prompt two"));
    expect(list.indexOf("prompt two")).toBeLessThan(list.indexOf("prompt one"));
    term.keys("Down", "Enter"); // prompt two
    await term.waitFor(/◆ {2}What goes back\?/);
    term.keys("Enter"); // the conversation and the files
    await term.waitFor(/no file to change[\s\S]*Go back to before that prompt\?/);
    term.keys("Enter");
    await term.waitFor(/Went back to before that prompt/);
    await term.waitFor(/› prompt two/);
    expect(readFileSync(file).subarray(0, before.length).equals(before)).toBe(true);
    const leaf = lines(file).at(-1);
    expect(leaf).toMatchObject({ type: "leaf" });
    term.keys("C-u");
    fx.server.reply(text("answer edited"));
    send("prompt two, edited");
    await term.waitFor(/answer edited/);
    expect(sentTexts(fx.server.requests.at(-1)!)).toEqual(["prompt one", "answer one", "prompt two, edited"]);
  });

  test("/tree goes to an entry of another path (no summary unless asked); /label names it; kill -9, then --resume goes on from there", async () => {
    await threeTurns();
    const file = sessionFiles(fx.sessions)[0]!;
    const answerOne = lines(file).find((l) => l.message?.content?.[0]?.text === "answer one").id as string;
    send("/tree all");
    await term.waitFor(/The session as a tree/);
    // From the leaf up to "answer one": answer three, prompt three, answer two, prompt two, answer one.
    term.keys("Up", "Up", "Up", "Up", "Enter");
    await term.waitFor(/Summarize the path you are leaving/);
    term.keys("Enter"); // no, the default
    await term.waitFor(/Went to /);
    send("/label first answer");
    await term.waitFor(/Labelled /);
    const log = lines(file);
    expect(log.at(-2)).toMatchObject({ type: "leaf", targetId: answerOne });
    expect(log.at(-1)).toMatchObject({ type: "label", targetId: answerOne, label: "first answer" });
    expect(log.some((l) => l.type === "branch_summary")).toBe(false);
    // This terminal's awl, not the newest on the machine: test files run side by side.
    process.kill(term.childPid(), "SIGKILL");
    await term.waitFor(/\[exited 137\]/); // gone, its lock with it: a loaded machine takes a moment to end a process
    fx.server.reply(text("after the move"));
    const run = await fx.run(["--resume", "-p", "next"]);
    expect(run).toMatchObject({ code: 0, stdout: "after the move\n" });
    expect(sentTexts(fx.server.requests.at(-1)!)).toEqual(["prompt one", "answer one", "next"]);
  });

  test("/tree with a summary asked for: the model reads the summary of the path left, and nothing else of it", async () => {
    await threeTurns();
    const file = sessionFiles(fx.sessions)[0]!;
    send("/tree");
    await term.waitFor(/The session as a tree \(prompts/);
    term.keys("Up", "Up", "Enter"); // from the leaf (answer three): prompt three, prompt two
    await term.waitFor(/Summarize the path you are leaving/);
    fx.server.reply(text("They asked for two and three; both were answered."));
    term.keys("Left", "Enter"); // yes
    await term.waitFor(/The path you left is summarized/);
    const summary = lines(file).at(-1);
    expect(summary).toMatchObject({ type: "branch_summary", summary: "They asked for two and three; both were answered." });
    fx.server.reply(text("fresh answer"));
    send("a fresh prompt");
    await term.waitFor(/fresh answer/);
    const texts = sentTexts(fx.server.requests.at(-1)!);
    expect(texts.slice(0, 2)).toEqual(["prompt one", "answer one"]);
    expect(texts.slice(2).join("\n")).toContain("They asked for two and three; both were answered.");
    expect(texts.join("\n")).not.toMatch(/answer two|answer three|prompt three/);
    expect(texts.at(-1)).toBe("a fresh prompt");
  });

  test("/tree at 40 columns: one row per entry, each within the width (clack's select wraps rows ten columns early with colour on)", async () => {
    await threeTurns(40);
    send("/tree");
    const screen = await term.waitFor(/↑\/↓ to navigate/);
    const rows = screen.split("\n").filter((row) => /^│  [○●] [○●◉] [0-9a-f]{8} /.test(row));
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => row.replace(/^│  [○●] [○●◉] [0-9a-f]{8} /, ""))).toEqual(["you prompt o…", "you prompt t…", "you prompt t…", "awl answer t…"]);
    for (const row of screen.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    term.keys("Escape");
    await term.waitFor(/Staying where you are/);
  });

  test("/fork continues in a copy: the banner shows where it came from, the original is untouched", async () => {
    await threeTurns();
    const parent = sessionFiles(fx.sessions)[0]!;
    const parentBytes = readFileSync(parent);
    send("/fork");
    const banner = await term.waitFor(/fork of [0-9a-f-]{8,} at [0-9a-f]{8}/);
    fx.server.reply(text("in the fork"));
    send("fork prompt");
    await term.waitFor(/in the fork/);
    expect(readFileSync(parent).equals(parentBytes)).toBe(true);
    const child = sessionFiles(fx.sessions).find((f) => f !== parent)!;
    expect(lines(child)[0].forkedFrom.session).toBe(lines(parent)[0].id);
    // The parent as the banner names it: a prefix that only the parent's id starts with (the fork's, taken within the minute, shares the first 8).
    const shown = /fork of ([0-9a-f-]+) at/.exec(banner)![1]!;
    expect([lines(parent)[0].id.startsWith(shown), lines(child)[0].id.startsWith(shown)]).toEqual([true, false]);
    expect(sentTexts(fx.server.requests.at(-1)!)).toEqual(["prompt one", "answer one", "prompt two", "answer two", "prompt three", "answer three", "fork prompt"]);
  });
});
