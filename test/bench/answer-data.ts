// A long answer as a model writes one (headings, paragraphs with inline
// markup, CJK and emoji, lists, tables, fenced code), and the deltas it
// streams in: the render benchmark's input, the same on every run.

import { prng } from "../support/prng";

const WORDS = ["the", "file", "**parser**", "reads", "each", "`line`", "and", "keeps", "a", "*count*", "of", "bytes", "so", "that", "resume", "is", "fast", "日本語", "テキスト", "🎉", "[docs](https://example.com/docs)", "when", "it", "fails"];

/** An answer of about `lines` source lines. */
export function longAnswer(lines: number, seed = 12): string {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const sentence = () => `${Array.from({ length: 8 + Math.floor(r() * 14) }, () => pick(WORDS)).join(" ")}.`;
  const out: string[] = [];
  while (out.length < lines) {
    switch (Math.floor(r() * 6)) {
      case 0:
        out.push(`## Step ${out.length}`, "");
        break;
      case 1:
        out.push(sentence(), sentence(), sentence(), "");
        break;
      case 2:
        for (let i = 0; i < 4; i++) out.push(`- ${sentence()}`);
        out.push("");
        break;
      case 3:
        out.push("```ts");
        for (let i = 0; i < 12; i++) out.push(`${"  ".repeat(i % 3)}const value${i} = compute(${i}, "text"); // ${pick(WORDS)}`);
        out.push("```", "");
        break;
      case 4:
        out.push("| name | size | note |", "|---|---:|---|");
        for (let i = 0; i < 5; i++) out.push(`| item${i} | ${i * 1024} | ${pick(WORDS)} |`);
        out.push("");
        break;
      default:
        for (let i = 1; i <= 3; i++) out.push(`${i}. ${sentence()}`);
        out.push("");
    }
  }
  return out.slice(0, lines).join("\n");
}

/** The answer cut as a stream delivers it: pieces of 1 to 12 characters (a token or a few). */
export function deltas(text: string, seed = 7): string[] {
  const r = prng(seed);
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const n = 1 + Math.floor(r() * 12);
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}
