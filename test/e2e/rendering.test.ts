// Issue 12, items 1 and 2, through the compiled binary in a real terminal
// (tmux), as a person sees it: a markdown answer rendered as it streams, an
// edit shown as a diff, a 40-column window where awl wraps by words and the
// terminal never has to, and a long answer on a short screen that leaves
// each of its lines in the scrollback exactly once.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

/** Everything the pane holds, scrollback included; `joined` undoes the terminal's own wrapping (tmux -J). */
function history(joined = false): string {
  const args = ["-L", term.socket, "capture-pane", "-p", "-S", "-", ...(joined ? ["-J"] : [])];
  return Bun.spawnSync(["tmux", ...args], { stdout: "pipe" }).stdout.toString();
}

/** Polls the pane's whole history (rows the terminal wrapped joined again) until it matches. */
async function waitInHistory(pattern: RegExp, limitMs = 15_000): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const all = history(true);
    if (pattern.test(all)) return all;
    if (Date.now() > deadline) throw new Error(`the pane never matched ${pattern}:\n${all}`);
    await Bun.sleep(50);
  }
}

async function ask(prompt: string, width = 110, height = 40): Promise<void> {
  term.start([AWL], { cwd: fx.project, env: fx.env, width, height });
  await waitInHistory(/\/help for commands/); // on 40 columns the banner wraps
  term.type(prompt);
  term.keys("Enter");
}

const ANSWER = [
  "# The plan",
  "",
  "This is **important**, with `inline code` and a [link](https://example.com/docs).",
  "",
  "- first item",
  "- second item",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "| file | lines |",
  "|---|---:|",
  "| a.ts | 12 |",
  "",
  "That is all.",
].join("\n");

describe.skipIf(!hasTmux)("answers and edits in a real terminal", () => {
  test("a markdown answer streams in rendered: heading, bold, code, list, code block, table; no markdown syntax left", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: ANSWER }], chunk: 3, delayMs: 3 });
    await ask("show me");
    await term.waitFor(/↑ .* in[^·]* · ↓ .* out/);
    const screen = term.screen();
    expect(screen).toMatch(/^The plan\n═+$/m);
    // The link's URL can be read (and copied) in a terminal without hyperlinks, as tmux 3.3 is.
    expect(screen).toContain("This is important, with inline code and a link (https://example.com/docs).");
    expect(screen).toContain("  • first item\n  • second item");
    expect(screen).toMatch(/┌─ ts\n│ const answer = 42;\n└─/);
    expect(screen).toMatch(/│ a\.ts │ +12 │/);
    expect(screen).toContain("That is all.");
    expect(screen).not.toMatch(/\*\*|`|^#|```/m);
    // Replaced in place: the plain text shown while each block grew is gone, nothing is there twice.
    expect(history().split("This is important").length - 1).toBe(1);
    expect(history()).not.toContain("**important**");
  });

  test("an edit is shown as a coloured diff of what it changed; the model is told the same line as before", async () => {
    await Bun.write(join(fx.project, "f.ts"), "import x from 'x';\n\nconst limit = 1;\nexport default limit;\n");
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "edit", input: { path: "f.ts", oldText: "const limit = 1;", newText: "const limit = 2;" } }] },
      { blocks: [{ type: "text", text: "Raised the limit." }] },
    );
    await ask("raise the limit");
    const screen = await term.waitFor(/Raised the limit\./);
    expect(screen).toContain("● edit f.ts");
    expect(screen).toContain("⎿ edited f.ts: line 3 replaced, now line 3");
    // (tmux drops the trailing spaces of the blank context line)
    expect(screen).toMatch(/ {4}@@ -1,4 \+1,4 @@\n {5}import x from 'x';\n *\n {4}-const limit = 1;\n {4}\+const limit = 2;\n {5}export default limit;/);
    const result = fx.server.requests.at(-1)!.body.messages.at(-1).content.find((b: { type: string }) => b.type === "tool_result");
    expect(result.content).toBe("edited f.ts: line 3 replaced, now line 3");
  });

  test("a 40-column window: answers wrap at word boundaries by awl, never by the terminal, CJK and emoji by their width", async () => {
    const text = "Wrapping happens between words: supercalifragilistic expialidocious 日本語のテキスト 🎉🎉 and more words to fill several rows of forty columns.\n\n- a list item long enough that it must wrap onto a second row";
    fx.server.reply({ blocks: [{ type: "text", text }], chunk: 4, delayMs: 2 });
    await ask("wrap", 40, 30);
    await waitInHistory(/↑ .* in[^·]* · ↓ .* out/);
    // tmux -J joins the rows the terminal wrapped itself: the same answer means awl wrapped every row of it.
    const from = (all: string) => all.slice(all.indexOf("Wrapping"), all.indexOf("↑"));
    expect(from(history(true))).toBe(from(history()));
    const answer = from(history());
    for (const row of answer.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    for (const word of ["supercalifragilistic", "expialidocious", "日本語のテキスト", "columns.", "second"]) expect(answer).toContain(word);
    expect(answer).toMatch(/ {2}• a list item long enough that it must\n {4}wrap onto a second row/);
  });

  test("a long answer on a short screen: every line of it is in the scrollback exactly once", async () => {
    const sections = Array.from({ length: 12 }, (_, i) => `## Part ${i}\n\nParagraph ${i} says something **bold** about item${i}, long enough to take a row or two of this terminal.\n\n\`\`\`sh\necho step${i}-a\necho step${i}-b\n\`\`\``);
    fx.server.reply({ blocks: [{ type: "text", text: sections.join("\n\n") }], chunk: 5, delayMs: 1 });
    await ask("long", 60, 12);
    await term.waitFor(/↑ .* in[^·]* · ↓ .* out/);
    const all = history();
    for (let i = 0; i < 12; i++) {
      expect({ i, part: all.split(`Part ${i}\n`).length - 1, item: all.split(`item${i},`).length - 1, a: all.split(`echo step${i}-a`).length - 1 }).toEqual({ i, part: 1, item: 1, a: 1 });
    }
    expect(all).not.toContain("**bold**");
  });

  test("a resize during a stream: nothing is left twice, and what comes after fits the new width", async () => {
    const paragraphs = Array.from({ length: 16 }, (_, i) => `Paragraph p${i}q has **some** words, enough of them to fill a row or more at either width.`);
    fx.server.reply({ blocks: [{ type: "text", text: paragraphs.join("\n\n") }], chunk: 3, delayMs: 4 });
    await ask("stream", 100, 30);
    await waitInHistory(/p4q/);
    Bun.spawnSync(["tmux", "-L", term.socket, "resize-window", "-x", "50", "-y", "30"]);
    await waitInHistory(/↑ .* in[^·]* · ↓ .* out/);
    const all = history(true);
    for (let i = 0; i < 16; i++) expect({ i, times: all.split(`p${i}q`).length - 1 }).toEqual({ i, times: 1 });
    // The last paragraphs were rendered after the resize: at 50 columns, by awl.
    const last = history().slice(history().indexOf("Paragraph p15q"), history().indexOf("↑"));
    expect(last).toBe("Paragraph p15q has some words, enough of them to\nfill a row or more at either width.\n");
  });

  test("a table streaming while the window is resized ends rendered as a table, never as raw markdown", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `| row${i} | value ${i} |`);
    const text = `A table follows.\n\n| name | value |\n|---|---|\n${rows.join("\n")}\n\nDone with the table.`;
    fx.server.reply({ blocks: [{ type: "text", text }], chunk: 2, delayMs: 8 });
    await ask("table", 100, 40);
    await waitInHistory(/\| row3 /); // the table is growing, shown as its source
    term.resize(60, 40);
    await waitInHistory(/↑ .* in[^·]* · ↓ .* out/);
    const all = history();
    expect(all).toContain("Done with the table.");
    expect(all).toMatch(/│ row11 +│ value 11 +│/);
    expect(all).not.toMatch(/\|---|\| row\d+ \|/);
    for (let i = 0; i < 12; i++) expect({ i, times: all.split(`row${i} `).length - 1 }).toEqual({ i, times: 1 });
  });
});
