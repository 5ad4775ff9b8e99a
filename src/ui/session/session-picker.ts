// The terminal list of `awl sessions` and of /resume in the REPL: this
// directory's sessions, most recently active first as --resume ranks them
// (session/store/recent.ts), each with its id (the shortest unique prefix), how long
// ago it was last active, its size and its title. Typing filters the list (by
// title, first prompt or id, case-insensitive); under it, the highlighted
// session's last prompts and answers. Up/Down move, Enter picks one to resume;
// Esc or Ctrl+C leaves. Built on clack's autocomplete prompt, drawn here so the
// current session stays listed (not offered) and the preview fits the screen.

import { AutocompletePrompt } from "@clack/core";
import { isCancel, limitOptions, S_BAR, S_BAR_END, S_RADIO_ACTIVE, S_RADIO_INACTIVE, symbol } from "@clack/prompts";
import { newestFirst, type SessionInfo } from "../../session/store";
import { colorsFor, type Colors } from "../render/colors";
import { age, fitWidth, oneLine } from "../render/format";
import { safeText } from "../render/safe-text";
import { wrapText } from "../render/wrap";
import { previewOf } from "./session-preview";

export interface PickOptions {
  /** The session open in this REPL: listed, but not offered. */
  current?: string;
  /** What Esc does, for the question: "leaves", "goes back". */
  escape?: string;
  now?: number;
  /**
   * The whole list, when `list` holds only the sessions started last (what
   * fits the first screen): read after the first screen is drawn, then the
   * list fills in, ranked as --resume ranks them. `signal` aborts once the
   * picker is answered: the rest is not wanted any more.
   */
  rest?: (signal: AbortSignal) => Promise<SessionInfo[]>;
}

interface Choice {
  value: string;
  /** Its row is laid out when drawn, at the terminal's width then (a resize lays it out again). */
  session: SessionInfo;
  disabled: boolean;
  hint?: string;
  /** What the search box is matched against, lower-cased. */
  haystack: string;
  path: string;
}

const HINT = "open here";
const MAX_ITEMS = 12;
/** Lines of preview under the list: the last prompts and answers, one line each. */
const PREVIEW_LINES = 4;
const FOOTER = "↑/↓ to select • Enter: confirm • Type: to search • Esc";

export async function pickSession(list: SessionInfo[], idLength: number, options: PickOptions = {}): Promise<string | undefined> {
  const c = colorsFor(process.stdout);
  const now = options.now ?? Date.now();
  const choicesOf = (sessions: SessionInfo[]): Choice[] =>
    newestFirst(sessions, now).map((s) => {
      const current = s.id === options.current;
      const haystack = [s.id, s.title, s.firstPrompt].filter(Boolean).join("\n").toLowerCase();
      return { value: s.id, session: s, disabled: Boolean(s.damaged) || current, haystack, path: s.path, ...(current ? { hint: HINT } : {}) };
    });
  const label = (o: Choice, width: number) => sessionLabelIn(o.session, idLength, o.hint ? width - o.hint.length - 3 : width, c, now);
  const choices = choicesOf(list);
  const first = choices.find((o) => !o.disabled);
  const filter = (search: string, o: Choice) => o.haystack.includes(search.toLowerCase());
  const message = `Sessions in ${safeText(process.cwd())}, most recent first: pick one to resume (Esc ${options.escape ?? "leaves"})`;
  const prompt = new AutocompletePrompt<Choice>({
    options: choices,
    ...(first ? { initialValue: [first.value] } : {}),
    filter,
    validate: (value) => (value === undefined || (Array.isArray(value) && value.length === 0) ? "No session to open: type less, or Esc" : undefined),
    render() {
      return frame(this, message, c, label);
    },
  });
  const answer = prompt.prompt();
  const fill = (sessions: SessionInfo[]) => {
    if (prompt.state !== "active" && prompt.state !== "error") return; // chosen or left meanwhile
    // The prompt keeps this array: filled in place, then the shown rows follow the search box, and it is drawn again
    // (render is private in clack's types, public at run time: the resize handler calls it too).
    const all = choicesOf(sessions);
    choices.splice(0, choices.length, ...all);
    prompt.filteredOptions = choices.filter((o) => !prompt.userInput || filter(prompt.userInput, o));
    // Untouched, the highlight stays on the top row: a session started long ago and active since may come first now,
    // and Enter then resumes the one --resume would, as on the first screen.
    const top = prompt.filteredOptions.find((o) => !o.disabled);
    if (top && !prompt.isNavigating && !prompt.userInput && prompt.focusedValue === first?.value) {
      prompt.focusedValue = top.value;
      prompt.selectedValues = [top.value];
    }
    (prompt as unknown as { render(): void }).render();
  };
  // The first screen answers at once: a choice made before the whole list is read does not wait for it, and a list
  // that cannot be read leaves the first screen as it is (the sessions on it were read).
  const reading = new AbortController();
  options.rest?.(reading.signal).then(fill, () => {});
  const choice = await answer;
  reading.abort();
  return isCancel(choice) || typeof choice !== "string" ? undefined : choice;
}

/** One screen of the picker, as clack draws a prompt: the question, the search box, the list, the preview, the keys. */
function frame(p: Omit<AutocompletePrompt<Choice>, "prompt">, message: string, c: Colors, label: (o: Choice, width: number) => string): string {
  const columns = process.stdout.columns || 100;
  const width = columns - 6; // "│  ● " before each label, and a column to spare
  // The question and the keys wrap between words under their mark, as clack's own prompts do.
  const under = (text: string, first: string, rest: string, style = (line: string) => line) =>
    wrapText(text, columns - 4)
      .split("\n")
      .map((line, i) => `${i ? rest : first}${style(line)}`);
  const head = [c.gray(S_BAR), ...under(message, `${symbol(p.state)}  `, `${c.gray(S_BAR)}  `)];
  const chosen = p.options.find((o) => o.value === p.focusedValue);
  if (p.state === "submit") return [...head, `${c.gray(S_BAR)}  ${c.dim(chosen ? label(chosen, width) : "")}`].join("\n");
  if (p.state === "cancel") return [...head, c.gray(S_BAR)].join("\n");
  const bar = `${p.state === "error" ? c.yellow(S_BAR) : c.cyan(S_BAR)}  `;
  const count = p.filteredOptions.length === p.options.length ? "" : c.dim(` (${p.filteredOptions.length} of ${p.options.length})`);
  const search = [`${bar}${c.dim("Search:")} ${p.isNavigating ? c.dim(p.userInput) : p.userInputWithCursor}${count}`];
  if (p.state === "error") search.push(`${bar}${c.yellow(p.error)}`);
  else if (p.filteredOptions.length === 0) search.push(`${bar}${c.yellow("No session matches")}`);
  // The highlight is the focused session's row (clack's cursor index is stale for a moment after the list fills in).
  const at = Math.max(0, p.filteredOptions.findIndex((o) => o.value === p.focusedValue));
  const focused = p.filteredOptions[at];
  const preview = focused && !focused.disabled ? previewOf(focused.path, PREVIEW_LINES, width).map((l) => `${bar}${c.dim(l)}`) : [];
  const tail = [...(preview.length ? [`${bar}${c.dim("─".repeat(Math.min(width, 40)))}`, ...preview] : []), ...under(FOOTER, bar, bar, c.dim), c.cyan(S_BAR_END)];
  const rows = limitOptions({
    cursor: at,
    options: p.filteredOptions,
    maxItems: MAX_ITEMS,
    columnPadding: 3,
    rowPadding: head.length + search.length + tail.length,
    style: (o, active) => row(o, label(o, width), active, c),
  });
  return [...head, ...search, ...rows.map((r) => `${bar}${r}`), ...tail].join("\n");
}

function row(o: Choice, label: string, active: boolean, c: Colors): string {
  const hint = o.hint ? ` ${c.dim(`(${o.hint})`)}` : "";
  if (o.disabled) return `${c.gray(S_RADIO_INACTIVE)} ${c.gray(label)}${hint}`;
  return active ? `${c.green(S_RADIO_ACTIVE)} ${label}${hint}` : `${c.dim(S_RADIO_INACTIVE)} ${c.dim(label)}`;
}

/** `019dc5ba-7  3 min ago      14 msgs  fix the failing date test…`, cut to `width` columns (the title, else the first prompt, gives way). */
export function sessionLabel(s: SessionInfo, idLength: number, width: number, now = Date.now()): string {
  return sessionLabelIn(s, idLength, width, undefined, now);
}

function sessionLabelIn(s: SessionInfo, idLength: number, width: number, c: Colors | undefined, now: number): string {
  const id = safeText(s.id.slice(0, idLength));
  const when = age(s.lastActivity ?? s.modified, now).padEnd(12);
  const size = s.damaged ? "damaged " : `${String(s.messageCount).padStart(4)} msgs`;
  const head = [id, when, size].join("  ");
  const about = s.title ?? s.firstPrompt;
  const rest = s.damaged ? s.damaged : about ? about : "(no prompt)";
  const room = Math.max(10, width - Bun.stringWidth(head) - 2);
  const tail = fitWidth(oneLine(rest, room), room);
  if (!c) return `${head}  ${tail}`;
  return [c.bold(id), c.dim(when), s.damaged ? c.red(size) : size, s.damaged || !about ? c.dim(tail) : tail].join("  ");
}
