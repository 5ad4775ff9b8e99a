// Seeded markdown answers for the renderer's tests: every block kind a model
// writes (paragraphs with inline markup, CJK, emoji and words too long for a
// row; headings; tight, loose and nested lists, ordered ones numbered any way;
// fences of every kind, with blank lines and fence-like lines inside; quotes,
// tables, rules, HTML, indented code), joined by one or more blank lines or
// none. And a way to cut a text into deltas anywhere.
import { prng, type Random } from "../../support/prng";

const WORDS = [
  "the", "**bold**", "*em*", "`code`", "[link](https://example.com/x)", "你好世界", "🎉", "👩‍👩‍👧", "e\u0301",
  "averyveryverylongwordthatdoesnotfitanywhere", "end.", "a_b", "x", "[rel](./a.md)", "<https://bun.sh>", "~~gone~~",
];

function sentence(r: Random): string {
  return Array.from({ length: r.int(1, 14) }, () => r.pick(WORDS)).join(" ");
}

const BLOCKS: ((r: Random) => string)[] = [
  (r) => Array.from({ length: r.int(1, 3) }, () => sentence(r)).join("\n"),
  (r) => `${"#".repeat(r.int(1, 3))} ${sentence(r)}`,
  (r) =>
    Array.from({ length: r.int(1, 4) }, () => `- ${sentence(r)}${r() < 0.3 ? `\n  - ${sentence(r)}` : ""}${r() < 0.2 ? `\n\n  ${sentence(r)}` : ""}`).join(
      r() < 0.7 ? "\n" : "\n\n",
    ),
  (r) => Array.from({ length: r.int(1, 4) }, (_, i) => `${r() < 0.8 ? i + 1 : r.int(1, 12)}${r() < 0.9 ? "." : ")"} ${sentence(r)}`).join("\n"),
  (r) => {
    const fence = r.pick(["```", "~~~", "````"]);
    const lines = Array.from({ length: r.int(0, 5) }, () => r.pick(["const x = 1;", "", "  indented()", "\tif (a) { return `t${b}`; }", "# comment", "```", "def f(): pass", "x".repeat(90)]));
    return `${fence}${r.pick(["", "ts", "python", "sh"])}\n${lines.map((l) => `${l}\n`).join("")}${fence}`;
  },
  (r) => `> ${sentence(r)}\n> ${sentence(r)}`,
  (r) => `| a | b |\n|---|---|\n| ${r.pick(WORDS)} | ${r.pick(WORDS)} |`,
  (r) => r.pick(["---", "***", "* * *"]),
  (r) => r.pick(["<div>\nhtml\n</div>", "<!-- c -->", "<b>x</b> inline"]),
  () => "    indented code\n    more",
  (r) => `${sentence(r)}\n- item\n- item2`,
];

/** One answer. */
export function markdownAnswer(r: Random): string {
  let doc = "";
  const n = r.int(1, 8);
  for (let i = 0; i < n; i++) doc += (i ? r.pick(["\n\n", "\n\n", "\n\n\n", "\n"]) : "") + r.pick(BLOCKS)(r);
  return doc + r.pick(["", "\n"]);
}

/** `count` answers from `seed`. */
export function markdownAnswers(seed: number, count: number): string[] {
  const r = prng(seed);
  return Array.from({ length: count }, () => markdownAnswer(r));
}

/** `text` cut into deltas of 1 to `max` code points, anywhere else: inside a word, a marker, a grapheme, a CR LF. */
export function cutIntoDeltas(r: Random, text: string, max = 8): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let at = 0; at < points.length; ) {
    const n = r.int(1, max);
    out.push(points.slice(at, at + n).join(""));
    at += n;
  }
  return out;
}
