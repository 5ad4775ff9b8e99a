// Issue 12, item 1: the answer rendered as markdown while it streams. What is
// checked, on seeded answers of every block kind cut into deltas anywhere:
//   - rendered piece by piece, an answer is Bun.markdown.ansi of the whole;
//   - streamed into a terminal (test/ui/virtual-terminal.ts), screen and
//     scrollback end up holding exactly that, and no erase ever reaches into
//     the scrollback: nothing is left there twice, however small the screen;
//   - a block taller than the screen is printed row by row and never
//     re-rendered; a tall code block is rendered a screenful at a time;
//   - what the model wrote is made safe before it is rendered, and what Bun
//     writes holds nothing but styling and http(s) links.
import { describe, expect, test } from "bun:test";
import { colorsFor } from "../../../src/ui/render/colors";
import { fitRows, neutralise, renderMarkdown } from "../../../src/ui/render/markdown";
import { MarkdownStream, renderAnswer, showAnswer } from "../../../src/ui/render/markdown-stream";
import { TurnRenderer } from "../../../src/ui/live/render";
import { showLinks, supportsHyperlinks } from "../../../src/ui/render/links";
import { safeText } from "../../../src/ui/render/safe-text";
import { wrapText } from "../../../src/ui/render/wrap";
import { prng } from "../../support/prng";
import { CONTROL, unstyled } from "../../support/terminal-text";
import { cutIntoDeltas, markdownAnswer, markdownAnswers } from "./markdown-corpus";
import { VirtualTerminal } from "../virtual-terminal";

/** Bun's rendering of the whole answer, with what every rendering gets (checked, links shown, rows wider than the screen cut). */
const bunWhole = (text: string, columns: number) => fitRows(showLinks(neutralise(Bun.markdown.ansi(safeText(text), { columns, colors: true, hyperlinks: false })), false), columns);

/** Streams `text` into a terminal of `columns` x `rows` in deltas cut by `r`. */
function streamLive(text: string, columns: number, rows: number, r = prng(1), max = 8): VirtualTerminal {
  const terminal = new VirtualTerminal(columns, rows);
  const stream = new MarkdownStream({ columns, rows }, true);
  for (const delta of cutIntoDeltas(r, safeText(text), max)) terminal.write(stream.push(delta));
  terminal.write(stream.end());
  return terminal;
}

const SAMPLE = `# Title

Some **bold** text, \`code\` and a [link](https://example.com).
A second line of the same paragraph, 日本語 and 🎉.

- one
- two
  - nested
- three

1. first
1. second

\`\`\`ts
const x = 1;

// after a blank line
\`\`\`

> a quote

| a | b |
|---|---|
| 1 | 2 |

---

The end.
`;

describe("rendered piece by piece = rendered whole", () => {
  test("an answer with every kind of block renders exactly as Bun renders it whole", () => {
    expect(renderAnswer(SAMPLE, 60)).toBe(Bun.markdown.ansi(SAMPLE, { columns: 60, colors: true, hyperlinks: false }));
    expect(Bun.stripANSI(renderAnswer(SAMPLE, 60))).toContain("   2. second"); // "1." twice is numbered on, as whole
  });

  test("2,000 seeded answers at widths 30-100: the same bytes, but for loose lists' resets", () => {
    const r = prng(2024);
    let exact = 0;
    let resetsOnly = 0;
    for (const text of markdownAnswers(2024, 2000)) {
      const columns = r.int(30, 100);
      const mine = renderAnswer(text, columns);
      const whole = bunWhole(text, columns);
      if (mine === whole) exact++;
      else {
        // A loose list rendered an item at a time lacks the \x1b[0m Bun ends each loose item with: nothing shows it.
        expect({ text, columns, mine: mine.replaceAll("\x1b[0m", "") }).toEqual({ text, columns, mine: whole.replaceAll("\x1b[0m", "") });
        resetsOnly++;
      }
    }
    console.log(`markdown fidelity: ${exact} of 2,000 answers byte for byte, ${resetsOnly} differing only in SGR resets`);
    expect(exact).toBeGreaterThan(1500);
  });
});

describe("streamed into a terminal", () => {
  test("cut anywhere, on a tall screen: what stays in the terminal is the whole rendering, and nothing was erased above the screen", () => {
    const r = prng(7);
    for (const text of markdownAnswers(7, 600)) {
      const columns = r.int(30, 100);
      const terminal = streamLive(text, columns, 1000, r);
      expect({ text, problems: terminal.problems }).toEqual({ text, problems: [] });
      expect({ text, columns, shown: terminal.text() }).toEqual({ text, columns, shown: renderAnswer(text, columns) });
    }
  });

  test("on small screens, whatever outgrows them: no erase reaches the scrollback, and every word is there exactly once", () => {
    const r = prng(11);
    for (let i = 0; i < 300; i++) {
      // Unique words, so a word shown twice (re-rendered after it scrolled away) would be counted.
      let n = 0;
      const text = markdownAnswer(r).replace(/(?<=^|\s)(?:the|end)(?=[\s.]|$)/g, () => `w${n++}w`);
      const columns = r.int(20, 80);
      const rows = r.int(4, 30);
      const terminal = streamLive(text, columns, rows, r);
      expect({ text, rows, problems: terminal.problems }).toEqual({ text, rows, problems: [] });
      const shown = Bun.stripANSI(terminal.text()).replace(/[\s│]+/g, ""); // a code row cut to fit continues after a gutter
      for (let w = 0; w < n; w++) expect({ text, word: w, times: shown.split(`w${w}w`).length - 1 }).toEqual({ text, word: w, times: 1 });
    }
  });

  test("resized at a random moment, narrower or wider: no erase reaches the scrollback, and every word is there exactly once", () => {
    const r = prng(17);
    for (let i = 0; i < 300; i++) {
      let n = 0;
      const text = safeText(markdownAnswer(r).replace(/(?<=^|\s)(?:the|end)(?=[\s.]|$)/g, () => `w${n++}w`));
      const screen = { columns: r.int(20, 100), rows: r.int(8, 40) };
      const terminal = new VirtualTerminal(screen.columns, screen.rows);
      const stream = new MarkdownStream(screen, true);
      const deltas = cutIntoDeltas(r, text, 8);
      const at = r.int(0, deltas.length);
      for (const [k, delta] of deltas.entries()) {
        if (k === at) {
          screen.columns = r.int(20, 100);
          terminal.resize(screen.columns);
        }
        terminal.write(stream.push(delta));
      }
      terminal.write(stream.end());
      expect({ text, problems: terminal.problems }).toEqual({ text, problems: [] });
      const shown = Bun.stripANSI(terminal.text()).replace(/[\s│]+/g, "");
      for (let w = 0; w < n; w++) expect({ text, word: w, times: shown.split(`w${w}w`).length - 1 }).toEqual({ text, word: w, times: 1 });
    }
  });

  test("a paragraph taller than the screen is printed row by row as it grows and left as printed; the next block is rendered", () => {
    const paragraph = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const text = `${paragraph}\n\nAfter **it**.\n`;
    const terminal = streamLive(text, 40, 8);
    expect(terminal.problems).toEqual([]);
    // Its markdown source, wrapped (nothing to render in it but the wrapping): then the blank row, then the next paragraph rendered.
    expect(terminal.text()).toBe(`${wrapText(paragraph, 40)}\n\n${renderMarkdown("After **it**.", 40)}`);
  });

  test("a code block taller than the screen is rendered a screenful at a time: the same rows as rendered whole", () => {
    const code = Array.from({ length: 100 }, (_, i) => `const line${i} = ${i};`).join("\n");
    const text = `Before.\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter.\n`;
    const terminal = streamLive(text, 50, 12);
    expect(terminal.problems).toEqual([]);
    expect(terminal.text()).toBe(renderAnswer(text, 50));
    expect(terminal.text()).toBe(bunWhole(text, 50));
  });

  test("a resize during a stream: the growing block is shown again at the new width, then rendered there", () => {
    const screen = { columns: 60, rows: 30 };
    const terminal = new VirtualTerminal(60, 30);
    const stream = new MarkdownStream(screen, true);
    const first = "First paragraph, rendered **before**.\n\n";
    terminal.write(stream.push(`${first}Second one, growing when the terminal shrinks, its words`));
    screen.columns = 40;
    terminal.resize(40);
    terminal.write(stream.push(" go on.\n\nThird, **after**: rendered at forty columns, wrapped there.\n") + stream.end());
    expect(terminal.problems).toEqual([]);
    // The first paragraph as the terminal reflowed it; everything after as rendered at 40 columns.
    const rest = "Second one, growing when the terminal shrinks, its words go on.\n\nThird, **after**: rendered at forty columns, wrapped there.\n";
    expect(Bun.stripANSI(terminal.text())).toBe(Bun.stripANSI(`${renderAnswer(first, 60)}\n${renderAnswer(rest, 40)}`));
  });

  test("a table streaming while the terminal is resized, at any moment, ends rendered, not as markdown", () => {
    const table = "Before it.\n\n| name | what it does |\n|------|--------------|\n| wrap | wraps words to the width |\n| link | shows a URL after its text |\n\nAfter it.\n";
    for (const [from, to] of [[100, 40], [40, 100], [80, 50]] as [number, number][]) {
      for (let at = 1; at < table.length; at += 3) {
        const screen = { columns: from, rows: 30 };
        const terminal = new VirtualTerminal(from, 30);
        const stream = new MarkdownStream(screen, true);
        for (const [i, ch] of [...table].entries()) {
          if (i === at) {
            screen.columns = to;
            terminal.resize(to);
          }
          terminal.write(stream.push(ch));
        }
        terminal.write(stream.end());
        const shown = Bun.stripANSI(terminal.text());
        expect({ at, from, to, problems: terminal.problems }).toEqual({ at, from, to, problems: [] });
        expect({ at, from, to, raw: shown.includes("|---") || shown.includes("| wrap |") }).toEqual({ at, from, to, raw: false });
        expect(shown).toContain("│ wrap");
        expect(shown).toContain("After it.");
      }
    }
  });

  test("the growing block is shown plainly below what is rendered, then replaced in place", () => {
    const terminal = new VirtualTerminal(80, 24);
    const stream = new MarkdownStream({ columns: 80, rows: 24 }, true);
    terminal.write(stream.push("# Heading\n\nA **growing** para"));
    expect(Bun.stripANSI(terminal.text())).toBe("Heading\n═══════\n\nA **growing**"); // "para" held: the word may go on
    terminal.write(stream.push("graph.\n\nNext "));
    expect(Bun.stripANSI(terminal.text())).toBe("Heading\n═══════\n\nA growing paragraph.\n\nNext");
    terminal.write(stream.end());
    expect(terminal.text()).toBe(renderAnswer("# Heading\n\nA **growing** paragraph.\n\nNext ", 80));
  });
});

describe("made safe, then rendered", () => {
  test("escape sequences from the model are shown, never run; markdown entities cannot bring a bidi override back", () => {
    const text = "Title\x1b]0;pwned\x07 and \x1b[2J cleared, `code \x1b[31m`, &#x202e;evil &#x1b;[31m &#8238;";
    const out = renderAnswer(text, 80);
    expect(unstyled(out)).not.toMatch(CONTROL);
    expect(Bun.stripANSI(out)).toContain("Title␛]0;pwned␇ and ␛[2J cleared, code ␛[31m, \\u202eevil [31m \\u202e");
  });

  test("a link shows its URL after its text, once when the text is the URL; any target is shown, none drives the terminal", () => {
    const out = renderAnswer("[ok](https://example.com/a) [file](file:///etc/passwd) [js](javascript:alert(1)) [rel](./src/a.ts) <https://b.example> end", 200);
    expect(Bun.stripANSI(out)).toBe("ok (https://example.com/a) file (file:///etc/passwd) js (javascript:alert(1)) rel (./src/a.ts) https://b.example end\n");
    expect(out).not.toContain("\x1b]");
  });

  test("where the terminal opens hyperlinks, http(s) links are OSC 8 ones too, the URL still shown; no other target is", () => {
    const bun = Bun.markdown.ansi("[ok](https://example.com/a) [rel](./src/a.ts) <https://b.example> end\n", { columns: 100, colors: true, hyperlinks: false });
    const out = showLinks(bun, true);
    expect(out.match(/\x1b\]8;;[^\x1b]+\x1b\\/g)).toEqual(["\x1b]8;;https://example.com/a\x1b\\", "\x1b]8;;https://b.example\x1b\\"]);
    expect(Bun.stripANSI(out)).toBe("ok (https://example.com/a) rel (./src/a.ts) https://b.example end\n");
    expect(neutralise(out)).toBe(out);
  });

  test("a URL as its own text, wrapped, shows once; in a table it can be read, the rows aligned", () => {
    const url = "https://example.com/a/long/path/to/something";
    const wrapped = Bun.stripANSI(renderAnswer(`See ${url} for the rest of it, and more words after.`, 50));
    expect(wrapped.match(/https:\/\/example/g)).toHaveLength(1);
    expect(wrapped.split("\n").every((row) => !row.startsWith(" "))).toBe(true);
    const table = Bun.stripANSI(renderAnswer(`| site | note |\n|---|---|\n| <${url}> | x |\n`, 100)).split("\n");
    expect(table.some((row) => row.includes(url))).toBe(true);
    expect(new Set(table.filter(Boolean).map((row) => Bun.stringWidth(row))).size).toBe(1);
  });

  test("which terminals get hyperlinks: those known to open them, never inside tmux or screen", () => {
    expect(supportsHyperlinks({ TERM_PROGRAM: "iTerm.app" })).toBe(true);
    expect(supportsHyperlinks({ KITTY_WINDOW_ID: "1" })).toBe(true);
    expect(supportsHyperlinks({ VTE_VERSION: "7200" })).toBe(true);
    expect(supportsHyperlinks({ TERM_PROGRAM: "iTerm.app", TMUX: "/tmp/tmux-1/default,1,0" })).toBe(false);
    expect(supportsHyperlinks({ TERM_PROGRAM: "tmux", TERM_PROGRAM_VERSION: "3.3a" })).toBe(false);
    expect(supportsHyperlinks({ TERM: "xterm-256color" })).toBe(false);
    expect(supportsHyperlinks({})).toBe(false);
  });

  test("whatever Bun writes, only SGR and http(s) links get through", () => {
    for (const sequence of ["\x1b[2J", "\x1b]0;t\x07", "\x1bP1$r\x1b\\", "\x1bc", "\x1b", "\x1b\\", "\x9b2J", "\x07", "\r", "\u202e", "\x1b]8;;https://a\x07l\x1b]8;;\x07", "\x1b]52;c;aGk=\x07"]) {
      const out = neutralise(`a${sequence}b\x1b[1mc\x1b[0m`);
      expect(out).toEndWith("b\x1b[1mc\x1b[0m");
      expect(out.replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(CONTROL);
    }
    expect(neutralise("\x1b]8;;https://ok.example\x1b\\l\x1b]8;;\x1b\\")).toBe("\x1b]8;;https://ok.example\x1b\\l\x1b]8;;\x1b\\");
  });

  test("rows wider than the screen (code, which Bun does not wrap) are cut to fit, by display width", () => {
    const out = renderAnswer(`\`\`\`\n${"x".repeat(50)}\n${"日本".repeat(15)}\n\`\`\``, 30);
    for (const row of out.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(30);
    expect(Bun.stripANSI(out).replace(/[│┌└─\s]/g, "")).toBe(`${"x".repeat(50)}${"日本".repeat(15)}`);
  });
});

describe("colour off", () => {
  const turn = (c: ReturnType<typeof colorsFor>, text: string, isTTY = true) => {
    let written = "";
    const renderer = new TurnRenderer({ write: (s: string) => (written += s), isTTY, columns: 40, rows: 20 }, c);
    renderer.handle({ type: "blockStart", index: 0, block: { type: "text", text: "" } });
    for (const delta of cutIntoDeltas(prng(3), text)) renderer.handle({ type: "delta", index: 0, text: delta });
    renderer.handle({ type: "blockStop", index: 0 });
    return written;
  };

  test("NO_COLOR on a terminal, TERM=dumb, or not a terminal: the markdown source, wrapped by display width, not one escape", () => {
    for (const c of [colorsFor({ isTTY: true }, { NO_COLOR: "1" }), colorsFor({ isTTY: true }, { TERM: "dumb" }), colorsFor({ isTTY: false }, {})]) {
      expect(c.isColorSupported).toBe(false);
      const written = turn(c, SAMPLE);
      expect(written).not.toContain("\x1b");
      expect(written).toBe(wrapText(SAMPLE, 40));
      expect(written).toContain("Some **bold** text, `code` and a"); // the source, wrapped at 40
      for (const row of written.split("\n")) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(40);
    }
  });

  test("the transcript's answers are shown the same way", () => {
    expect(showAnswer(SAMPLE, 40, false)).toBe(wrapText(SAMPLE.trimEnd(), 40) + "\n");
    expect(showAnswer(SAMPLE, 40, true)).toBe(renderAnswer(SAMPLE, 40));
  });
});
