// Markdown to terminal bytes, with Bun's own renderer (Bun.markdown.ansi: GFM,
// tables, highlighted code). Its input is always text safeText already made
// inert (./safe-text.ts); its output is checked once more here, because markdown
// can spell a character the input did not hold: `&#x202e;` becomes U+202E. A
// link shows its URL after its text (./links.ts), and is an OSC 8 hyperlink
// too where the terminal is known to open them. So what leaves this file holds
// only SGR styling, OSC 8 links to http(s) URLs, and text with no control in it. Rows wider than the terminal
// (a long code line, which Bun does not wrap) are cut into rows that fit, so
// the terminal never wraps one itself.

import { showLinks, supportsHyperlinks } from "./links";
import { safeText } from "./safe-text";

const UNSAFE = "\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069";
/** An SGR sequence, an OSC 8 hyperlink (open or close), or one unsafe character. */
const TOKENS = new RegExp(`(\\x1b\\[[0-9;:]*m)|\\x1b\\]8;[^\\x07\\x1b;]*;([^\\x07\\x1b]*)\\x1b\\\\|[${UNSAFE}]`, "g");
/**
 * Anything in Bun's output but SGR and OSC 8 links to http(s) URLs: a control
 * other than ESC, an ESC that starts neither a CSI nor an OSC, a CSI that is
 * not SGR, an OSC that is not such a link, a string terminator that ends no
 * such link. One pass, no copy.
 */
const SUSPECT = new RegExp(
  `[${UNSAFE.replace("\\x0b-\\x1f", "\\x0b-\\x1a\\x1c-\\x1f")}]|\\x1b[^[\\]\\\\]|\\x1b$|\\x1b\\[[0-9;:]*(?:[^0-9;:m]|$)|\\x1b\\](?!8;;(?:https?://[^\\s${UNSAFE}]*)?\\x1b\\\\)|(?<!\\x1b\\]8;;(?:https?://[^\\s${UNSAFE}]*)?)\\x1b\\\\`,
  "i",
);
const SAFE_URL = new RegExp(`^https?://[^\\s${UNSAFE}]+$`, "i");

/** Whether links are also made OSC 8 hyperlinks: known once, from the environment awl started in. */
const HYPERLINKS = supportsHyperlinks(process.env);

/** A markdown fragment (one or more whole blocks) as terminal rows; it ends at the start of a row. */
export function renderMarkdown(source: string, columns: number): string {
  return fitRows(showLinks(neutralise(Bun.markdown.ansi(source, { columns, colors: true, hyperlinks: false })), HYPERLINKS), columns);
}

/**
 * Bun's output, keeping only its styling and http(s) links. A link to anything
 * else loses its OSC 8 wrapper and shows its target after its label, as a
 * terminal without hyperlinks would; any other control is shown as safeText
 * shows it.
 */
export function neutralise(rendered: string): string {
  if (!SUSPECT.test(rendered)) return rendered; // the usual answer: only what is kept, checked in one pass
  let dropped: string | undefined; // the target of a link whose OSC 8 was left out
  return rendered.replace(TOKENS, (match, sgr: string | undefined, url: string | undefined) => {
    if (sgr) return sgr;
    if (url === undefined) return safeText(match);
    if (url === "") {
      // The link's end: close what was opened, or name the target that was not linked.
      if (dropped === undefined) return match;
      const target = dropped;
      dropped = undefined;
      return target ? `\x1b[2m (${safeText(target)})\x1b[22m` : "";
    }
    if (SAFE_URL.test(url)) return match;
    dropped = url;
    return "";
  });
}

/** How Bun starts each row of a code block. */
const CODE_GUTTER = "\x1b[2m│ \x1b[0m";

/**
 * Rows wider than `columns` cut into rows that fit (styles carried over), so
 * each row the terminal gets is one screen row. A code row's continuations
 * keep the block's gutter.
 */
export function fitRows(text: string, columns: number): string {
  const rows = text.split("\n");
  let changed = false;
  for (const [i, row] of rows.entries()) {
    if (row.length * 2 <= columns || Bun.stringWidth(row) <= columns) continue; // no character is wider than 2 columns
    if (row.startsWith(CODE_GUTTER) && columns > 10) {
      const code = Bun.wrapAnsi(row.slice(CODE_GUTTER.length), columns - 2, { hard: true, trim: false, wordWrap: false });
      rows[i] = CODE_GUTTER + code.replaceAll("\n", `\n${CODE_GUTTER}`);
    } else rows[i] = Bun.wrapAnsi(row, columns, { hard: true, trim: false, wordWrap: false });
    changed = true;
  }
  return changed ? rows.join("\n") : text;
}

// ------------------------------------------------------------- fenced code
// A fenced block is rendered in parts: its top as soon as it opens, its lines
// when it closes or a screenful at a time (./markdown-stream.ts), its bottom.
// Bun highlights each line on its own, so lines rendered in batches get the
// rows rendering the whole block gives; test/ui/render/markdown-stream.test.ts holds
// it to that.

/** The fence that closes a block opened by `opener` ("```ts" -> "```"). */
export function closingFence(opener: string): string {
  return /^(`+|~+)/.exec(opener)?.[1] ?? "```";
}

/** A fence's borders by opener and width: the same few for every block of an answer. */
const borders = new Map<string, string[]>();

function fenceRows(opener: string, lines: readonly string[], columns: number): string[] {
  if (!lines.length) {
    const key = `${columns} ${opener}`;
    let rows = borders.get(key);
    if (!rows) {
      if (borders.size > 64) borders.clear();
      borders.set(key, (rows = renderFence(opener, [], columns)));
    }
    return rows;
  }
  return renderFence(opener, lines, columns);
}

function renderFence(opener: string, lines: readonly string[], columns: number): string[] {
  const body = lines.length ? `${lines.join("\n")}\n` : "";
  return renderMarkdown(`${opener}\n${body}${closingFence(opener)}\n`, columns).slice(0, -1).split("\n");
}

/** The block's top border (with the language), as its first row. */
export function fenceTop(opener: string, columns: number): string {
  return `${fenceRows(opener, [], columns)[0]}\n`;
}

/** Code lines as the rows they take inside the block. */
export function fenceBody(opener: string, lines: readonly string[], columns: number): string {
  return `${fenceRows(opener, lines, columns).slice(1, -1).join("\n")}\n`;
}

/** The bottom border; a block with no line gets the empty row Bun gives it. */
export function fenceBottom(opener: string, empty: boolean, columns: number): string {
  const rows = fenceRows(opener, [], columns);
  return `${(empty ? rows.slice(1) : rows.slice(-1)).join("\n")}\n`;
}
