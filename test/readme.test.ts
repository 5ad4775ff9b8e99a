// The README and docs/ as a reader's Markdown viewer shows them: every code
// block closes where it was meant to (a closing fence with text after it is no
// fence, and the sections after it became one code block), and the README
// names every slash command the REPL takes, and no other.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { commandNames, parseCommand } from "../src/ui/commands";

const ROOT = join(import.meta.dir, "..");
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** Text between tags, as the reader sees it. */
const unescape = (html: string) => html.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");

test.each(DOCS)("%s: every code block closes on its own fence, and every heading is a heading", (file) => {
  const source = read(file);
  const html = Bun.markdown.html(source);
  const blocks = [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescape(m[1]!));
  // A fence inside a block is one that did not close it (```` ``` text ````) or an opening one swallowed.
  const swallowed = blocks.flatMap((block) => block.split("\n").filter((line) => /^\s*(```|~~~)/.test(line)));
  expect(swallowed).toEqual([]);
  const sourceHeadings = source.split("\n").filter((line) => /^#{1,6} \S/.test(line)).length;
  const shownHeadings = [...html.matchAll(/<h[1-6][ >]/g)].length;
  expect(shownHeadings).toBe(sourceHeadings);
});

test("the README names every REPL command, and each /command it names is one", () => {
  const html = Bun.markdown.html(read("README.md"));
  // Inline code only: what a code block shows is a session, not the list.
  const spans = [...html.replace(/<pre>[\s\S]*?<\/pre>/g, "").matchAll(/<code>([\s\S]*?)<\/code>/g)].map((m) => unescape(m[1]!));
  // Read as the REPL reads a line: `/tmp is full?` (where /tmp exists) and `/usr/bin/ls` are prompts, not commands.
  const named = spans.filter((span) => span.startsWith("/")).flatMap((span) => parseCommand(span, existsSync)?.name ?? []);
  const known = commandNames();
  expect([...new Set(named.filter((name) => !known.includes(name)))]).toEqual([]);
  expect(known.filter((name) => !named.includes(name))).toEqual([]);
});
