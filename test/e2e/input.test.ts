// The prompt as a person uses it, through the compiled binary in a real
// terminal (tmux): interrupting and quitting, a large paste, an input taller
// than the screen, type-ahead, a narrow window and a resize, the history
// shared across sessions, Ctrl+R and Tab.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest } from "../support/server";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const BANNER = /\/help for commands/;
const LONG_STREAM = { blocks: [{ type: "text" as const, text: "word ".repeat(400) }], chunk: 5, delayMs: 20 };
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** The text of the last user message a request carried. */
function lastPrompt(request: RecordedRequest): string {
  const content = request.body.messages.at(-1).content;
  return typeof content === "string" ? content : content.filter((b: { type: string }) => b.type === "text").map((b: { text: string }) => b.text).join("");
}
const historyPath = () => join(fx.home, ".local", "share", "awl", "history.jsonl");

describe.skipIf(!hasTmux)("interrupting and quitting", () => {
  test("Ctrl+C during a stream, even twice in a row, interrupts and never quits; at the empty prompt one Ctrl+C says how to quit, the next quits", async () => {
    fx.server.reply(LONG_STREAM, { blocks: [{ type: "text", text: "still here" }] });
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    term.type("talk");
    term.keys("Enter");
    await term.waitFor(/word word word/);
    term.keys("C-c", "C-c");
    await term.waitFor(/Interrupted/);
    await Bun.sleep(500);
    expect(term.screen()).not.toContain("[exited");
    term.type("continue");
    term.keys("Enter");
    await term.waitFor(/still here/);
    await term.waitFor(/↑ .* in[^·]* · ↓ .* out[^\n]*\n›/);

    term.keys("C-c");
    await term.waitFor(/Press Ctrl\+C again to quit/);
    await Bun.sleep(300);
    expect(term.screen()).not.toContain("[exited");
    term.keys("C-c");
    const screen = await term.waitFor(/\[exited 0\]/);
    expect(screen).not.toContain("Press Ctrl+C again"); // the hint is gone from the screen once it quits
    expect(screen).toMatch(/awl --resume [0-9a-f]+/);
  });

  test("Ctrl+C after the turn it interrupted only shows the hint: the interrupt did not count", async () => {
    fx.server.reply(LONG_STREAM);
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    term.type("talk");
    term.keys("Enter");
    await term.waitFor(/word word word/);
    term.keys("C-c");
    await term.waitFor(/Interrupted\.\n(?:.*\n)?›/);
    term.keys("C-c");
    await term.waitFor(/Press Ctrl\+C again to quit/);
    await Bun.sleep(300);
    expect(term.screen()).not.toContain("[exited");
  });

  test("Ctrl+D on an empty prompt quits at once", async () => {
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

/** awl in a terminal of this size, its answer to "talk" streaming (reply with it first). */
async function startTalking(width: number, height: number): Promise<void> {
  term.start([AWL], { cwd: fx.project, env: fx.env, width, height });
  await term.waitFor(BANNER);
  term.type("talk");
  term.keys("Enter");
  await term.waitFor(/word word word/);
}

describe.skipIf(!hasTmux)("the input box", () => {
  test("a 3,000-line paste shows as a placeholder, is sent in full, and the scrollback holds it once", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "got the paste" }] });
    const pasted = Array.from({ length: 3000 }, (_, i) => `pasted line ${i} of the log`).join("\n");
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 100, height: 30 });
    await term.waitFor(BANNER);
    term.type("summarise: ");
    term.paste(pasted);
    term.type(" thanks");
    await term.waitFor(/› summarise: \[pasted 3,000 lines\] thanks/);
    term.keys("Enter");
    await term.waitFor(/got the paste/);
    expect(lastPrompt(fx.server.requests[0]!)).toBe(`summarise: ${pasted} thanks`);
    const history = term.history();
    expect(occurrences(history, "[pasted 3,000 lines]")).toBe(1);
    expect(occurrences(history, "pasted line")).toBe(0);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("an input taller than the screen scrolls inside it: no row of it reaches the scrollback twice", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "read them all" }] });
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 60, height: 15 });
    await term.waitFor(BANNER);
    const typed = Array.from({ length: 40 }, (_, i) => `tall row ${i}.`);
    for (const [i, row] of typed.entries()) {
      term.type(row);
      if (i < typed.length - 1) term.keys("M-Enter");
    }
    await term.waitFor(/tall row 39\./);
    // Up through every line to the top, edit there (a new line moves every row below it), and back down:
    // the view scrolls both ways and every row changes.
    term.keys(...Array<string>(39).fill("Up"));
    await term.waitFor(/› tall row 0\./);
    term.keys("Home");
    term.type("first ");
    term.keys("End", "M-Enter");
    term.type("inserted.");
    await term.waitFor(/› first tall row 0\.\n\s*· inserted\./);
    term.keys(...Array<string>(40).fill("Down"));
    await term.waitFor(/tall row 39\.\s*$/);
    term.keys("Enter");
    await term.waitFor(/read them all/);
    expect(lastPrompt(fx.server.requests[0]!)).toBe(["first tall row 0.", "inserted.", ...typed.slice(1)].join("\n"));
    const history = term.history();
    const counts = typed.map((row) => occurrences(history, ` ${row}\n`));
    expect(Math.max(...counts)).toBe(1);
    expect(counts.at(-1)).toBe(1);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("what is typed during a turn shows under the output as it streams, then waits in the next prompt", async () => {
    fx.server.reply({ ...LONG_STREAM, blocks: [{ type: "text", text: "word ".repeat(150) }] }, { blocks: [{ type: "text", text: "second answer" }] });
    await startTalking(60, 20);
    term.type("next question");
    // Below the words still streaming (and the status line under them), while they stream.
    const during = await term.waitFor(/word\s*\n[^\n]*esc to interrupt\)\n› next question/);
    expect(fx.server.requests).toHaveLength(1);
    expect(during).not.toMatch(/↑ .* in/);
    const after = await term.waitFor(/↑ .* in[^·]* · ↓ .* out[^\n]*\n› next question/);
    expect(occurrences(after, "next question")).toBe(1);
    term.keys("Enter");
    await term.waitFor(/second answer/);
    expect(lastPrompt(fx.server.requests[1]!)).toBe("next question");
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("Esc during a streamed answer: what was typed meanwhile, a line sent ahead included, is back in the input box, unsent", async () => {
    fx.server.reply(LONG_STREAM, { blocks: [{ type: "text", text: "second answer" }] });
    await startTalking(80, 24);
    term.type("first line");
    term.keys("Enter");
    term.type("and more");
    await term.waitFor(/esc to interrupt\)\n› and more/);
    term.keys("Escape");
    await term.waitFor(/Interrupted\.\n(↑ .*\n)?› first line\n· and more/);
    await Bun.sleep(300);
    expect(fx.server.requests).toHaveLength(1); // nothing was sent
    term.keys("Enter");
    await term.waitFor(/second answer/);
    expect(lastPrompt(fx.server.requests[1]!)).toBe("first line\nand more");
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("Ctrl+D during an answer does not quit awl when the answer ends: the row under the status line says why", async () => {
    fx.server.reply(LONG_STREAM);
    await startTalking(80, 24);
    term.keys("C-d");
    await term.waitFor(/esc to interrupt\)\nCtrl\+D quits at an empty prompt, once the turn is over/);
    await term.waitFor(/↑ .* in[^·]* · ↓ .* out[^\n]*\n›/);
    await Bun.sleep(300);
    expect(term.screen()).not.toContain("[exited");
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });

  test("a 40-column window: a long prompt wraps between words on rows of its own, a resize redraws it once, and it is sent as typed", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "narrow answer" }] });
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 40, height: 20 });
    await term.waitFor(/^›/m); // the banner wraps at this width
    const prompt = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec zebra";
    /** The prompt's rows at `width`, wrapped as a person expects: a word that does not fit starts the next row, the space between dropped. */
    const rowsAt = (width: number) => {
      const rows = ["›"];
      for (const word of prompt.split(" ")) {
        if (Bun.stringWidth(`${rows.at(-1)} ${word}`) <= width) rows[rows.length - 1] += ` ${word}`;
        else rows.push(word);
      }
      return rows;
    };
    term.type(prompt);
    let screen = await term.waitFor(/zebra/);
    expect(screen.split("\n").every((row) => Bun.stringWidth(row) <= 40)).toBe(true);
    expect(screen).toContain("› alpha bravo charlie delta echo foxtrot\ngolf hotel india juliett kilo lima mike\nnovember oscar papa quebec zebra"); // never cut inside a word
    expect(term.cursor().x).toBe(Bun.stringWidth(rowsAt(40).at(-1)!));

    for (const width of [80, 40, 63]) {
      term.resize(width, 20);
      await term.waitFor(new RegExp(`^${rowsAt(width)[0]}$`, "m"));
      await Bun.sleep(200); // the redraw after the resize
      screen = term.screen();
      expect({ width, copies: occurrences(term.history(), "zebra") }).toEqual({ width, copies: 1 });
      expect({ width, copies: occurrences(screen, "› alpha") }).toEqual({ width, copies: 1 });
      expect(screen).toContain(rowsAt(width).join("\n"));
      expect(term.cursor().x).toBe(Bun.stringWidth(rowsAt(width).at(-1)!));
    }
    term.keys("Enter");
    await term.waitFor(/narrow answer/);
    expect(lastPrompt(fx.server.requests[0]!)).toBe(prompt);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe.skipIf(!hasTmux)("resizing the window", () => {
  const TYPED = "this is a fairly long input line that I am typing into the box so that it wraps over more than one row at sixty columns wide";
  /** The input's rows at `width`, wrapped between words: a word that does not fit starts the next row, the space between dropped. */
  const rowsAt = (text: string, width: number) => {
    const rows = ["›"];
    for (const word of text.split(" ")) {
      if (Bun.stringWidth(`${rows.at(-1)} ${word}`) <= width) rows[rows.length - 1] += ` ${word}`;
      else rows.push(word);
    }
    return rows;
  };
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  /** Waits until the input is drawn at `width`, all its rows in order and nothing under them. */
  const drawnAt = (text: string, width: number) => term.waitFor(new RegExp(`${escape(rowsAt(text, width).join("\n"))}\\s*$`));

  test("with a turn's output above the input: 2 and 3 rows through 100→40→100, 100→30→100 and 100→40→60→100 leave one input box, nothing of an earlier drawing, scrollback included", async () => {
    // Each resize sequence starts after a turn, the input at the screen's bottom: repeated narrowings move it up (see below).
    const answer = { blocks: [{ type: "text" as const, text: Array.from({ length: 12 }, (_, i) => `answer line ${i}`).join("\n\n") }] };
    fx.server.reply(...Array.from({ length: 6 }, () => answer));
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 100, height: 20 });
    await term.waitFor(BANNER);
    const texts = [TYPED, `${TYPED} and then a third row of words, as a person might go on typing into the box at a hundred columns`];
    for (const text of texts) {
      for (const widths of [[40, 100], [30, 100], [40, 60, 100]]) {
        const turn = `turn ${fx.server.requests.length}`;
        term.send(turn);
        await term.waitFor(new RegExp(`${turn}\\n(?:.|\\n)*answer line 11(?:.|\\n)*↑ .* in[^·]* · ↓ .* out[^\\n]*\\n›\\s*$`));
        term.type(text);
        await drawnAt(text, 100);
        expect(rowsAt(text, 100).length).toBe(texts.indexOf(text) + 2);
        for (const width of widths) {
          term.resize(width, 20);
          await drawnAt(text, width);
          expect({ widths, width, copies: occurrences(term.history(), "› this is") }).toEqual({ widths, width, copies: 1 });
        }
        term.keys("C-c"); // empties the box
        await term.waitFor(/›\s*$/);
      }
    }
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe.skipIf(!hasTmux)("history and completion", () => {
  test("a new session's Up offers the previous session's prompts, Ctrl+R finds them, and the file (0600) never holds a summary", async () => {
    const SUMMARY = "## Goal\nFix the parser bug in the summary text.";
    fx.server.respond = (r) => ({ blocks: [{ type: "text", text: r.rawBody.includes("You compact a coding session") ? SUMMARY : "noted" }] });

    // First session: two prompts and a compaction.
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    for (const prompt of ["remember the parser bug", "another prompt"]) {
      term.type(prompt);
      term.keys("Enter");
      await term.waitFor(new RegExp(`${prompt}\\n(?:.*\\n)*noted`));
    }
    term.type("/compact");
    term.keys("Enter");
    await term.waitFor(/compacted/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    // A new session: Up walks back through them, newest first.
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    term.keys("Up");
    await term.waitFor(/› \/compact\s*$/);
    term.keys("Up");
    await term.waitFor(/› another prompt\s*$/);
    term.keys("Up");
    await term.waitFor(/› remember the parser bug\s*$/);
    term.keys("Down", "Down", "Down");
    await term.waitFor(/›\s*$/);
    // Ctrl+R: the newest prompt holding what is typed; Enter sends it.
    term.keys("C-r");
    term.type("parser");
    await term.waitFor(/\(reverse-i-search\)`parser': remember the parser bug/);
    term.keys("Enter");
    await term.waitFor(/› remember the parser bug\n(?:.*\n)*noted/);
    expect(lastPrompt(fx.server.requests.at(-1)!)).toBe("remember the parser bug");
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    // Resumed, the session's compaction summary is never offered as a prompt.
    term.start([AWL, "--resume"], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    term.keys("Up", "Up", "Up", "Up", "Up", "Up");
    // A key typed after them shows once every Up has been handled (no fixed pause: a loaded machine can take longer).
    term.type("!");
    await term.waitFor(/› remember the parser bug!\s*$/);
    term.keys("C-u", "C-d");

    const file = historyPath();
    const texts = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(texts.map((t) => t.text)).toEqual(["remember the parser bug", "another prompt", "/compact", "remember the parser bug"]);
    expect(texts.every((t) => t.cwd === fx.project)).toBe(true);
    expect(readFileSync(file, "utf8")).not.toContain("Fix the parser bug in the summary");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(fx.home, ".local", "share", "awl")).mode & 0o777).toBe(0o700);
  }, 40_000);

  test("Tab completes slash commands and paths, and lists what matches", async () => {
    mkdirSync(join(fx.project, "src"));
    await Bun.write(join(fx.project, "src", "parser.ts"), "");
    await Bun.write(join(fx.project, "src", "printer.ts"), "");
    await Bun.write(join(fx.project, "README.md"), "");
    term.start([AWL], { cwd: fx.project, env: fx.env });
    await term.waitFor(BANNER);
    term.type("/mo");
    term.keys("Tab");
    term.type("x"); // after the space the completion added (capture-pane trims it)
    await term.waitFor(/› \/model x$/m);
    term.keys("C-u");
    term.type("/");
    term.keys("Tab");
    // Every command, in order: the list wraps into a second row on a narrow screen.
    await term.waitFor(/\/approve\s+\/compact\s+\/effort\s+\/export\s+\/extensions\s+\/fork\s+\/help\s+\/init\s+\/label\s+\/mcp\s+\/model\s+\/new\s+\/permissions\s+\/quit\s+\/rename\s+\/resume\s+\/rewind\s+\/session\s+\/tree/);
    term.keys("C-u");
    term.type("look at sr");
    term.keys("Tab");
    await term.waitFor(/› look at src\/\s*$/m);
    term.type("p");
    term.keys("Tab");
    await term.waitFor(/parser\.ts {2}printer\.ts/);
    term.type("a");
    term.keys("Tab");
    term.type("and READ");
    term.keys("Tab");
    await term.waitFor(/› look at src\/parser\.ts and README\.md/);
    term.keys("C-u", "C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});
