// What reaches a terminal, judged byte by byte (issue 11, item 4): awl's own
// styling (picocolors' SGR sequences) is allowed, nothing else a terminal acts
// on is. And a seeded generator of hostile text: random control bytes and
// escape sequences mixed into ordinary multilingual text.
import type { AgentEvent } from "../../src/agent/events";
import { reportActivity } from "../../src/cli/print";
import { Conversation, type Message } from "../../src/conversation";
import { colorsFor, type Colors } from "../../src/ui/render/colors";
import { LiveArea } from "../../src/ui/live/live-area";
import { TurnRenderer } from "../../src/ui/live/render";
import { StreamingCall, TurnStatus } from "../../src/ui/live/status-line";
import { unfoldedRows } from "../../src/ui/session/folded";
import { renderTranscript } from "../../src/ui/session/transcript";

export const colored = colorsFor({ isTTY: true }, {});
export const plain = colorsFor({ isTTY: false });

/** Every SGR sequence picocolors (awl's styling) writes. */
export const AWL_SGR: ReadonlySet<string> = new Set(
  Object.values(colored)
    .filter((f): f is (s: string) => string => typeof f === "function")
    .flatMap((f) => f("x").match(/\x1b\[[0-9;]*m/g) ?? []),
);

/**
 * Every SGR sequence the markdown renderer (Bun.markdown.ansi, issue 12) writes
 * for an answer: collected from one answer using every construct it styles
 * and the languages it highlights. A sequence not in it fails the fuzz, and
 * belongs here once checked.
 */
export const MARKDOWN_SGR: ReadonlySet<string> = new Set(
  Bun.markdown
    .ansi(
      [
        "# h1\n\n## h2\n\n### h3\n\n#### h4\n\n##### h5\n\n###### h6\n\nSetext\n===\n",
        "**b** *i* ~~s~~ `c` __u__ [l](https://x.example) <https://y.example> ![img](https://z.example/a.png) [[wiki]] $m$\n",
        "> quote\n\n- a\n  - b\n1. c\n- [ ] t\n- [x] d\n\n| a | b |\n|:-|-:|\n| c | d |\n\n---\n\n<div>\nx\n</div>\n\n    indented\n",
        ...["ts", "js", "python", "sh", "bash", "json", "rust", "go", "c", "html", "css", "diff", "yaml", "md", ""].map(
          (lang) => `\n\`\`\`${lang}\nconst x = 1; // c\nlet s = "str" + 'q' + \`t\`; if (a) { return true } # h\n+ add\n- del\n<a href="x">y</a> 0x1f 3.5 null\n\`\`\`\n`,
        ),
      ].join("\n"),
      { columns: 80, colors: true, hyperlinks: true },
    )
    .match(/\x1b\[[0-9;]*m/g) ?? [],
);

/**
 * Removes awl's own styling (picocolors, the markdown renderer's SGR, and its
 * OSC 8 links to http(s) URLs); whatever controls are left came from the
 * untrusted text.
 */
export const unstyled = (s: string) =>
  s.replace(/\x1b\[[0-9;]*m|\x1b\]8;;(?:https?:\/\/[^\x07\x1b\s]*)?\x1b\\/g, (seq) =>
    seq.startsWith("\x1b]") || AWL_SGR.has(seq) || MARKDOWN_SGR.has(seq) ? "" : seq,
  );

/** A character a terminal would act on: C0 but newline and tab, DEL, C1, bidi overrides and isolates. */
export const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

/** How many such characters a string holds (each ESC or C1 starts a sequence the terminal would run). */
export const controlsIn = (s: string) => s.match(CONTROLS)?.length ?? 0;

// ------------------------------------------------------------------ the fuzz


type Rng = () => number;
const int = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, items: readonly T[]): T => items[int(r, items.length)]!;

const WORDS = ["the", "answer", "file", "bash", "ok", "héllo", "wörld", "—", "你好", "日本語", "🎉", "👩‍👩‍👧", "🇫🇷", "e\u0301", "Ελληνικά", "עברית", "$ ls -la", "42", "…", "\t", "\n", "\n\n", " ", "  "];
const param = (r: Rng) => Array.from({ length: int(r, 4) }, () => String(int(r, 1100))).join(";");
const payload = (r: Rng) => Array.from({ length: int(r, 4) }, () => pick(r, WORDS.slice(0, 12))).join("");
const ST = ["\x1b\\", "\x07", "\x9c"];

/** One hostile fragment: a bare control, or a whole (or cut) escape sequence of any family. */
const FRAGMENTS: ((r: Rng) => string)[] = [
  (r) => String.fromCharCode(pick(r, [...Array(32).keys()].filter((c) => c !== 9 && c !== 10))), // any C0 but tab and newline
  (r) => String.fromCharCode(0x80 + int(r, 32)), // any C1
  () => "\x7f",
  (r) => pick(r, ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]),
  () => "\r",
  () => "\r\n",
  () => "\x1b",
  (r) => `\x1b[${pick(r, ["", "?", ">", "="])}${param(r)}${String.fromCharCode(0x40 + int(r, 63))}`, // CSI, any final byte
  (r) => `\x1b[${pick(r, ["2J", "3J", "H", "K", "?1049h", "?25l", "?2004h", "?1000h", "6n", "1;31m", "0m", "38;5;196m", "5A", "s", "u", "!p", "c"])}`,
  (r) => `\x1b]${pick(r, ["0", "1", "2", "4;1", "7", "8;;https://evil.example/x", "8;;", "10;?", "52;c", "1337;File=", "133;A"])};${payload(r)}${pick(r, ST)}`, // OSC
  (r) => `\x1b${pick(r, ["P", "_", "^", "X"])}${payload(r)}${pick(r, ST)}`, // DCS, APC, PM, SOS
  (r) => `${String.fromCharCode(pick(r, [0x9b, 0x9d, 0x90, 0x9f, 0x9e, 0x98]))}${param(r)}${pick(r, ["J", "m", "0;t\x07", "q\x9c"])}`, // 8-bit forms
  (r) => `\x1b${pick(r, ["c", "7", "8", "D", "E", "H", "M", "N", "O", "Z", "=", ">", "(0", ")0", "#8", "%G", " F"])}`, // ESC Fe/Fp/Fs, charsets
  (r) => `\x1b[${param(r)}`, // a CSI cut off (the next fragment or text completes it)
  (r) => `\x1b]0;${payload(r)}`, // an OSC never terminated
];

/** A string of ordinary text with `hostile` fragments mixed in. */
export function hostileText(r: Rng): { text: string; fragments: number } {
  let text = "";
  let fragments = 0;
  const parts = 1 + int(r, 12);
  for (let i = 0; i < parts; i++) {
    if (r() < 0.45) {
      text += pick(r, FRAGMENTS)(r);
      fragments++;
    } else text += pick(r, WORDS);
  }
  return { text, fragments };
}

/** Cuts a string into 1-5 random pieces (deltas), anywhere, even inside a sequence. */
export function pieces(r: Rng, text: string): string[] {
  const cuts = [...new Set(Array.from({ length: int(r, 5) }, () => int(r, text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of cuts) out.push(text.slice(from, cut)), (from = cut);
  out.push(text.slice(from));
  return out;
}

// ------------------------------------------------------------------ rendering

/** One fuzzed string through every path that shows untrusted text, as the terminal would receive it. */
export function renderEverywhere(s: string, r: () => number, c: Colors): { live: string; transcript: string; print: string; status: string; folded: string } {
  let live = "";
  const renderer = new TurnRenderer({ write: (w: string) => (live += w), isTTY: false, columns: 100 }, c);
  const stream = (index: number, type: "text" | "thinking"): AgentEvent[] => [
    { type: "blockStart", index, block: type === "text" ? { type, text: "" } : { type, thinking: "" } },
    ...pieces(r, s).map((text): AgentEvent => ({ type: "delta", index, text })),
    { type: "blockStop", index },
  ];
  const activity: AgentEvent[] = [
    { type: "toolStart", id: "t1", name: "bash", summary: s },
    { type: "toolEnd", id: "t1", name: "bash", output: { content: s, isError: false } },
    { type: "toolStart", id: "t2", name: s, summary: s },
    { type: "toolEnd", id: "t2", name: s, output: { content: s, isError: true } },
    { type: "retry", attempt: 1, attempts: 6, delayMs: 500, reason: s },
  ];
  const events: AgentEvent[] = [
    { type: "requestStart", provider: "anthropic", model: s },
    ...stream(0, "thinking"),
    ...stream(1, "text"),
    { type: "end", stopReason: "toolUse" },
    ...activity,
    { type: "blockStart", index: 0, block: { type: "text", text: "" } },
    { type: "delta", index: 0, text: s }, // cut off: no blockStop
    { type: "end", stopReason: "error", errorMessage: s },
  ];
  for (const event of events) renderer.handle(event);
  renderer.abandon();

  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: `prompt ${s}` }] },
    { role: "assistant", content: [{ type: "thinking", thinking: s }, { type: "toolUse", id: "t1", name: "bash", input: JSON.stringify({ command: s }) }, { type: "toolUse", id: "t2", name: s || "x", input: "{}" }] },
    { role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: s, isError: true }, { type: "toolResult", toolUseId: "t2", content: s, isError: true }] },
    { role: "assistant", content: [{ type: "text", text: `answer ${s}` }] },
  ];
  const transcript = renderTranscript(new Conversation(messages), c, 100);
  // Ctrl+O: the thinking and the tool output in full.
  const folded = unfoldedRows(messages, c, 100).join("\n");

  let print = "";
  for (const event of activity) reportActivity(event, { write: (w: string) => (print += w) }, c);

  // The rows under the output on a terminal: a model id, a call streaming in (name and main argument), a command's output.
  const status = new TurnStatus(new LiveArea({ isTTY: false, columns: 100, write: () => true } as unknown as NodeJS.WriteStream), c, () => 0);
  status.request(s);
  const call = new StreamingCall("t1", s, "command");
  for (const piece of pieces(r, JSON.stringify({ command: s }))) call.push(piece);
  status.calls([call]);
  const rows = status.rows(100);
  status.running(s);
  status.output(s);
  rows.push(...status.rows(100));
  return { live, transcript, print, status: rows.join("\n"), folded };
}
