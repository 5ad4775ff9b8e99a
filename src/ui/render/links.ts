// Links in a rendered answer. Bun.markdown.ansi without hyperlinks writes a
// link as its text (blue, underlined) followed by its target, dimmed, in
// parentheses, and wraps the rows with the target counted: so the URL can be
// read and copied in every terminal (tmux 3.3 drops OSC 8 hyperlinks, and
// many terminals never had them). Two things are done to that here:
//   - a link whose text is its URL (`<https://…>`, a bare URL) shows it once,
//     not `https://x (https://x)`; in a table row the target's place is kept
//     as spaces, so the columns stay aligned;
//   - where the terminal is known to open OSC 8 hyperlinks, an http(s) link's
//     text is also made one, the URL still shown after it.

const LINK_TEXT = "\x1b[34m\x1b[4m";
const TARGET_OPEN = "\x1b[24m\x1b[39m\x1b[2m (";
const TARGET_CLOSE = "\x1b[2m)\x1b[39m\x1b[22m";
/** A link as Bun writes it: its text (which ends its underline once), then its target (which Bun may have wrapped onto the next rows), then the space after it. */
const LINK = /\x1b\[34m\x1b\[4m((?:(?!\x1b\[24m)[\s\S])*?)\x1b\[24m\x1b\[39m\x1b\[2m \(([^\x1b]*)\x1b\[2m\)\x1b\[39m\x1b\[22m( ?)/g;
const HTTP_URL = /^https?:\/\/[^\s\x00-\x1f\x7f-\x9f]+$/i;
const TABLE_ROW = "\x1b[2m│\x1b[0m";

/** Terminals known to open OSC 8 hyperlinks, from what they set in the environment. Inside tmux or screen: no (tmux 3.3 drops them). */
export function supportsHyperlinks(env: Record<string, string | undefined>): boolean {
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? "") || env.TERM_PROGRAM === "tmux") return false;
  if (env.KITTY_WINDOW_ID || env.WT_SESSION || env.TERM === "xterm-kitty" || env.TERM === "xterm-ghostty" || env.TERM === "foot") return true;
  if (["iTerm.app", "WezTerm", "vscode", "ghostty"].includes(env.TERM_PROGRAM ?? "")) return true;
  return Number(env.VTE_VERSION ?? 0) >= 5000; // GNOME Terminal and the other VTE terminals since 0.50
}

/** Bun's links (rendered without hyperlinks) shown once where the text is the URL, and made OSC 8 hyperlinks when `osc8`. */
export function showLinks(rendered: string, osc8: boolean): string {
  if (!rendered.includes(TARGET_OPEN)) return rendered;
  return rendered.replace(LINK, (match, text: string, target: string, space: string, at: number) => {
    const url = target.replace(/\n/g, "");
    const hyperlink = osc8 && HTTP_URL.test(url) && !text.includes("\n");
    const link = `${hyperlink ? `\x1b]8;;${url}\x1b\\` : ""}${LINK_TEXT}${text}\x1b[24m\x1b[39m${hyperlink ? "\x1b]8;;\x1b\\" : ""}`;
    if (Bun.stripANSI(text).replace(/\n/g, "") !== url) return hyperlink ? `${link}\x1b[2m (${target}${TARGET_CLOSE}${space}` : match;
    if (rendered.startsWith(TABLE_ROW, rendered.lastIndexOf("\n", at) + 1)) return `${link}${" ".repeat(Bun.stringWidth(target) + 3)}${space}`;
    // Where Bun moved the target to the next rows, the text after it starts the next row.
    const next = rendered[at + match.length];
    return target.includes("\n") && next !== "\n" && next !== undefined ? `${link}\n` : `${link}${space}`;
  });
}
