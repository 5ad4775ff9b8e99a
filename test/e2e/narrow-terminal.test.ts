// awl's own lines at 40 columns, in a real terminal (tmux): notices, /session
// and /tree break between words (a long path after a `/`), /session's
// continuation rows line up under their value, and every /tree row is one row
// (the select would break a wider one onto a second row, mid-word); an error's
// words break between words as it happens and when the session is resumed.
import { describe, expect, test } from "bun:test";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

/** The words of `sentence` in order, each whole, any run of spaces and row breaks between them. */
const wordsOf = (sentence: string) => new RegExp(sentence.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));

async function ask(prompt: string, answered: RegExp): Promise<void> {
  term.send(prompt);
  await term.waitFor(answered);
}

describe.skipIf(!hasTmux)("a 40-column terminal", () => {
  test("notices, /session and /tree break between words; /session's rows hang under their value; /tree's rows are one row each", async () => {
    fx.server.respond = () => ({ blocks: [{ type: "text", text: "Hello there, this is an answer." }] });
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 40, height: 60 });
    await term.waitFor(/\/help for commands/);
    await ask("first prompt with several words to wrap around", /answer\.\n.*ctx/);
    await ask("second prompt", /second prompt\n[\s\S]*answer\.\n[\s\S]*ctx[^\n]*\n[\s\S]*›/);
    await ask("/label a rather long label for this entry", /\/tree labelled\s+lists\s+labels/);

    term.send("/session");
    let screen = await term.waitFor(/Instructions:/);
    const rows = screen.slice(screen.lastIndexOf("› /session")).split("\n").slice(1);
    const file = rows.slice(rows.findIndex((r) => r.startsWith("File")), rows.findIndex((r) => r.startsWith("Model")));
    // The path's rows, under the value column, each but the last ending at a `/` unless a name is longer than a row.
    expect(file[0]).toMatch(/^File {5}\//);
    for (const row of file.slice(1)) expect(row).toMatch(/^ {9}\S/);
    expect(file.map((r) => r.slice(9)).join("")).toMatch(/^\/tmp\/.*\.jsonl$/);
    expect(screen).toMatch(/Approve {2}auto \(every tool runs without\n {9}asking\)/);

    // Going back makes a branch: /tree then shows a folded path and a labelled row.
    term.send("/tree");
    await term.waitFor(/↑\/↓ to navigate/);
    term.keys("Up", "Up", "Enter");
    await term.waitFor(/Summarize the path/);
    term.keys("Enter");
    await term.waitFor(/Went to/);
    term.keys("C-u");
    await ask("a new branch", /a new branch\n[\s\S]*answer\.\n[\s\S]*ctx/);
    // Each filter: the folded path (prompts) and the labelled answer (all) stay one row each.
    for (const [command, expected] of [["/tree", /└ [0-9a-f]{8} \d+ entries/], ["/tree all", /[0-9a-f]{8} awl .*\[a /]] as const) {
      term.send(command);
      screen = await term.waitFor(/↑\/↓ to navigate/);
      const list = screen.slice(screen.lastIndexOf("The session as a tree")).split("\n");
      const items = list.slice(list.findIndex((r) => /^│ {2}[○●◉]/.test(r)), list.findIndex((r) => r.includes("↑/↓ to navigate")));
      expect(items.length).toBeGreaterThan(3);
      for (const row of items) expect(row).toMatch(/^│ {2}[○●◉] /); // no continuation rows
      expect(items.join("\n")).toMatch(expected);
      term.keys("Escape");
      await term.waitFor(/›\s*$/);
    }

    // Leaving for a fork: both notices wrap between words.
    term.send("/fork");
    screen = await term.waitFor(/the\s+original\s+is\s+unchanged\./);
    expect(screen).toMatch(wordsOf("messages, saved): /resume"));
    expect(screen).toMatch(/returns\s+to\s+it\./);
    expect(screen).toMatch(/Forked\s+session\s+[0-9a-f-]+\s+at\s+entry\s+[0-9a-f]{8}\s+into\s+[0-9a-f-]+;\s+the\s+original\s+is\s+unchanged\./);
  });

  test("an error's words break between words as it happens and in the resumed transcript", async () => {
    const message = "The request named a parameter that this particular model does not accept at all";
    fx.server.reply({ fault: { status: 400, message } });
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 40, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("hello there");
    expect(await term.waitFor(/with\s+your\s+next\s+one\./)).toMatch(wordsOf(message));
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env, width: 40, height: 40 });
    const resumed = await term.waitFor(/resumed[\s\S]*\/help for commands/);
    expect(resumed).toMatch(wordsOf(message));
  });
});
