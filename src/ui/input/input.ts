// The prompt on a real terminal: raw mode and bracketed paste for exactly as
// long as a line is being read (or a turn is being watched for Ctrl+C), the
// editor state machine fed by the key decoder, the screen redrawn after each
// chunk of keys (only the rows that changed, and never more rows than the
// screen has: see input-render.ts).

import { type CompletionContext, complete } from "./complete";
import { createEditor, type EditorState, endSearch, expandPastes, handleKey, replaceRange, viewOf } from "./editor";
import type { Edited } from "./external-editor";
import { CLEAR_SCREEN, fit, type Layout, layoutInput, leave, redraw } from "./input-render";
import { type LineResult, readPipedLine } from "./input-pipe";
import { enterRawMode } from "./input-modes";
import { type Key, KeyDecoder } from "./keys";
import { unsent, withDraft } from "./type-ahead";
import { AtPicker } from "./at-picker";
import type { FileList } from "./project-files";

/** `rewind`: Esc twice on an empty prompt (the REPL opens /rewind). */
export type ReadLineResult = LineResult | { kind: "rewind" };

export interface ReadLineOptions {
  prompt: string;
  /** Oldest first. A submitted line is appended to this array (unless it repeats the last entry). */
  history: string[];
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
  /** Drawn before the second and later lines of a multi-line input; defaults to "· " right-aligned under the prompt. */
  continuation?: string;
  /** Tab completes slash commands and paths with this; without it Tab inserts a tab. */
  completion?: CompletionContext;
  /** Styles the rows shown under the input (the Ctrl+C hint, completions): dim in the REPL. */
  hintStyle?: (text: string) => string;
  /** Ctrl+O: rows to print above the input, for a terminal `columns` wide (the latest turn in full: ./folded.ts). */
  unfold?: (columns: number) => string[];
  /** Text the input box starts with (a prompt given back unsent), inserted as a paste: a large one is its placeholder. */
  text?: string;
  /** Drawn before the prompt while the line is edited, asked at each draw (the approval mode); the line as sent keeps only the prompt. */
  label?: () => string;
  /** Shift+Tab: the REPL cycles the approval mode; the label is drawn again. */
  onShiftTab?: () => void;
  /** Ctrl+G: the prompt's text through the person's editor (external-editor.ts); without it, Ctrl+G does nothing. */
  editor?: (text: string) => Promise<Edited>;
  /** Starts listing the files `@` offers (at-picker.ts), when it is first typed; without it, `@` is a character like any. */
  files?: (changed: () => void) => FileList;
}

/** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. */
const ESCAPE_WAIT_MS = 40;

/** A second Ctrl+C on an empty prompt within this long quits. */
export const QUIT_WINDOW_MS = 2000;
export const QUIT_HINT = "Press Ctrl+C again to quit";

/** Completions listed under the input: at most this many rows of them. */
const CANDIDATE_ROWS = 3;

/**
 * Keys typed while a turn ran (or after Enter in the same chunk), replayed into
 * the next prompt so type-ahead is not lost.
 */
const typeAhead = new WeakMap<NodeJS.ReadStream, Key[]>();

function queueFor(input: NodeJS.ReadStream): Key[] {
  let queue = typeAhead.get(input);
  if (!queue) typeAhead.set(input, (queue = []));
  return queue;
}

/** What the next prompt's box starts with: what was typed during a turn that was interrupted, unsent (see unsent). */
const drafts = new WeakMap<NodeJS.ReadStream, EditorState>();

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

const continuationFor = (prompt: string) => "· ".padStart(Math.max(2, Bun.stringWidth(prompt)));

export function readLine(options: ReadLineOptions): Promise<ReadLineResult> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  // Without a terminal on both ends there is nothing to edit on (or nowhere to
  // draw): read plain lines, which on a terminal input leaves editing to its cooked mode.
  if (!input.isTTY || !output.isTTY) return readPipedLine(input);

  const style = options.hintStyle ?? ((text: string) => text);
  const decoder = new KeyDecoder();
  const queue = queueFor(input);
  let state: EditorState = withDraft(createEditor([...options.history]), drafts.get(input));
  drafts.delete(input);
  if (options.text) state = handleKey(state, { type: "paste", text: options.text }).state;
  let drawn: Layout | undefined;
  /** Rows under the input, plain text: the Ctrl+C hint or completions, until the next key. */
  let hint: string[] = [];
  /** A Ctrl+C on the empty prompt was pressed less than QUIT_WINDOW_MS ago, and nothing since. */
  let quitArmed = false;
  /** Esc was pressed on the empty prompt, and nothing since: a second one opens /rewind. */
  let escapeArmed = false;
  let quitTimer: ReturnType<typeof setTimeout> | undefined;
  let escapeTimer: ReturnType<typeof setTimeout> | undefined;
  return new Promise((resolve, reject) => {
    let restore = enterRawMode(input, output);
    let settled = false;
    // The list is drawn again as names arrive, until the line is sent.
    const picker = options.files ? new AtPicker(options.files, () => guarded(() => !settled && draw())) : undefined;

    /** Redraws what changed; `final` draws the input as submitted (no hints, the cursor at its end, a search ended). */
    const draw = (final = false) => {
      const columns = output.columns || 80;
      const screenRows = output.rows || 24;
      const rows = picker?.rows() ?? [];
      const below = final ? [] : (rows.length > 0 ? rows : hint).slice(0, Math.max(0, screenRows - 1)).map((row) => style(fit(row, columns)));
      const shown = final ? endSearch(state) : state;
      const prompt = final ? options.prompt : `${options.label?.() ?? ""}${options.prompt}`;
      const view = viewOf(shown, prompt, options.continuation ?? continuationFor(prompt));
      if (final) view.cursor = view.text.length;
      const next = layoutInput(view, { columns, maxRows: Math.max(1, screenRows - below.length), top: drawn?.top, below });
      const bytes = redraw(drawn, next);
      if (bytes) output.write(bytes);
      drawn = next;
    };
    const finish = (result: ReadLineResult | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(escapeTimer);
      clearTimeout(quitTimer);
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("error", finish);
      output.off("resize", onResize);
      try {
        output.write(leave(drawn));
      } catch (error) {
        if (!(result instanceof Error)) result = asError(error);
      }
      restore();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const guarded = (fn: () => void) => {
      try {
        fn();
      } catch (error) {
        finish(asError(error));
      }
    };
    const disarm = () => {
      quitArmed = false;
      clearTimeout(quitTimer);
    };

    /** Applies keys in order; keys after a submit or quit are kept as type-ahead for the next prompt. */
    const apply = (keys: Key[]) => {
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const armed = quitArmed;
        disarm();
        hint = [];
        const picked = picker?.key(key, state);
        if (picked) {
          state = picked;
          picker!.update(state);
          continue;
        }
        if (key.type === "key" && key.name === "tab" && !key.ctrl && !key.alt && !key.shift && options.completion && !state.search) {
          const completion = complete(state.text, state.cursor, options.completion);
          if (completion) {
            if (completion.insert) state = replaceRange(state, state.cursor, state.cursor, completion.insert);
            picker?.update(state);
            hint = candidateRows(completion.candidates, output.columns || 80);
            continue;
          }
        }
        if (key.type === "key" && key.name === "tab" && key.shift && options.onShiftTab && !state.search) {
          options.onShiftTab();
          continue;
        }
        if (key.type === "key" && key.name === "g" && key.ctrl && !key.alt && options.editor && !state.search) {
          queue.push(...keys.slice(i + 1)); // typed after Ctrl+G: read once the prompt is back
          return handOver(options.editor);
        }
        if (key.type === "key" && key.name === "o" && key.ctrl && !key.alt && options.unfold && !state.search) {
          // Printed where the input was; the input is drawn again under it, as it was.
          output.write(`${erase(drawn)}${options.unfold(output.columns || 80).join("\r\n")}\r\n`);
          drawn = undefined;
          continue;
        }
        if (key.type === "key" && key.name === "escape" && !key.alt && !state.search && state.text === "") {
          if (escapeArmed) {
            queue.push(...keys.slice(i + 1));
            return finish({ kind: "rewind" });
          }
          escapeArmed = true;
          continue;
        }
        escapeArmed = false;
        const { state: nextState, action } = handleKey(state, key);
        if (action?.type === "interrupt") {
          // Ctrl+C on the empty prompt: the first says how to quit, a second one soon after quits.
          if (!armed) {
            quitArmed = true;
            hint = [QUIT_HINT];
            quitTimer = setTimeout(() => guarded(() => {
              quitArmed = false;
              hint = [];
              draw();
            }), QUIT_WINDOW_MS);
            continue;
          }
          draw(true);
          queue.push(...keys.slice(i + 1));
          return finish({ kind: "quit" });
        }
        if (action?.type === "clearScreen") {
          output.write(CLEAR_SCREEN);
          drawn = undefined;
        } else if (action) {
          // The text as submitted stays on screen (drawn now if it arrived in the same read as Enter).
          draw(true);
          queue.push(...keys.slice(i + 1));
          if (action.type === "quit") return finish({ kind: "quit" });
          if (nextState.history.length > options.history.length) options.history.push(action.text);
          return finish({ kind: "line", text: action.text });
        }
        state = nextState;
        picker?.update(state);
      }
      draw();
    };

    /** Ctrl+G: the terminal to the editor (the input erased, cooked mode, nothing read), then back, the edited text in the box. */
    const handOver = (editor: NonNullable<ReadLineOptions["editor"]>) => {
      input.off("data", onData);
      output.write(erase(drawn));
      drawn = undefined;
      restore();
      void editor(expandPastes(state.text, state.pastes)).then((edited) =>
        guarded(() => {
          restore = enterRawMode(input, output);
          if ("text" in edited) state = replaceRange({ ...state, pastes: new Map() }, 0, state.text.length, edited.text);
          else hint = [edited.unchanged];
          input.on("data", onData);
          apply(queue.splice(0));
          if (!settled) input.resume();
        }),
      );
    };
    const onData = (chunk: Buffer | string) =>
      guarded(() => {
        clearTimeout(escapeTimer);
        apply(decoder.push(chunk));
        if (!settled && decoder.pending) escapeTimer = setTimeout(() => guarded(() => apply(decoder.flush())), ESCAPE_WAIT_MS);
      });
    const onEnd = () => finish({ kind: "quit" });
    const onResize = () => guarded(() => draw());

    guarded(() => {
      input.on("data", onData);
      input.on("end", onEnd);
      input.on("error", finish);
      output.on("resize", onResize);
      apply(queue.splice(0));
      if (!settled) input.resume();
    });
  });
}

/** Erases the input as drawn, leaving the cursor at the start of its first row. */
function erase(drawn: Layout | undefined): string {
  if (!drawn) return "\r\x1b[2K";
  const up = drawn.cursorRow > 0 ? `\x1b[${drawn.cursorRow}A` : "";
  const rows = drawn.rows.length;
  // Row by row: "erase below" from the screen's top-left corner counts as clearing the screen, which tmux copies into its history.
  return `${up}\r${Array.from({ length: rows }, () => "\x1b[2K").join("\x1b[1B")}${rows > 1 ? `\x1b[${rows - 1}A` : ""}`;
}

/** Completions as rows under the input: as many as fit in CANDIDATE_ROWS rows, then how many more. */
export function candidateRows(candidates: readonly string[], columns: number): string[] {
  const rows: string[] = [];
  let row = "";
  for (let i = 0; i < candidates.length; i++) {
    const item = fit(candidates[i]!, columns);
    const joined = row ? `${row}  ${item}` : item;
    if (Bun.stringWidth(joined) <= columns) {
      row = joined;
      continue;
    }
    rows.push(row);
    row = item;
    if (rows.length === CANDIDATE_ROWS - 1 && i < candidates.length - 1) {
      rows.push(`… ${candidates.length - i} more`);
      return rows;
    }
  }
  if (row) rows.push(row);
  return rows;
}

export interface TypeAheadOptions {
  /** Called with the row that shows what was typed so far, "" once there is nothing to show. */
  show(row: string): void;
  /** The prompt the row starts with. */
  prompt: string;
  /** For Up and Ctrl+R in what is typed ahead. */
  history?: readonly string[];
  /** Styles a note shown in the row instead (dim in the REPL). */
  noteStyle?: (text: string) => string;
}

/** Ctrl+D on an empty line during a turn: it quits only at the prompt, where it can be seen to. */
export const CTRL_D_NOTE = "Ctrl+D quits at an empty prompt, once the turn is over";
/** Ctrl+O during a turn: what it will do, and when. */
export const CTRL_O_NOTE = "Ctrl+O: this turn's thinking and tool output in full, once it is over";

/**
 * While a turn runs: Ctrl+C or Esc calls onInterrupt (anything typed before
 * it stays, unsent: see unsent); other keys are kept as type-ahead for the next prompt, and shown
 * through `typeAhead.show` as they are typed. Returns the function that stops
 * watching and restores the terminal (the row shown stays: watching again
 * shows the same keys, and the turn's end clears it).
 */
export function watchInterrupt(
  onInterrupt: () => void,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stdout,
  typeAhead?: TypeAheadOptions,
): () => void {
  if (!input.isTTY) return () => {};
  const restore = enterRawMode(input, output);
  const decoder = new KeyDecoder();
  const queue = queueFor(input);
  let escapeTimer: ReturnType<typeof setTimeout> | undefined;
  // What the next prompt will hold once the keys are replayed into it, kept up to date for the row.
  let preview = withDraft(createEditor(typeAhead?.history ?? []), drafts.get(input));
  /** The last line sent ahead with Enter, as it was typed (placeholders and all). */
  let lastSent: EditorState | undefined;
  let shown = "";
  /** A word about a key that was not kept (Ctrl+D), until the next key. */
  let note = "";
  for (const key of queue) preview = previewKey(preview, key);
  const show = () => {
    if (!typeAhead) return;
    const columns = output.columns || 80;
    const continuation = continuationFor(typeAhead.prompt);
    let row = "";
    if (preview.text !== "") row = layoutInput(viewOf(preview, typeAhead.prompt, continuation), { columns, maxRows: 1 }).rows[0]!;
    else if (lastSent !== undefined) {
      // Sent ahead with Enter: shown with a return sign, it goes as soon as the turn ends.
      const view = { ...viewOf(lastSent, typeAhead.prompt, continuation), cursor: 0 };
      row = `${layoutInput(view, { columns: Math.max(1, columns - 2), maxRows: 1 }).rows[0]} ⏎`;
    } else if (note) row = (typeAhead.noteStyle ?? ((text: string) => text))(fit(note, columns));
    if (row !== shown) typeAhead.show((shown = row));
  };
  function previewKey(state: EditorState, key: Key): EditorState {
    const { state: next, action } = handleKey(state, key);
    if (action?.type === "submit") lastSent = endSearch(state);
    return next;
  }
  const apply = (keys: Key[]) => {
    for (const key of keys) {
      if (key.type === "key" && ((key.name === "c" && key.ctrl) || (key.name === "escape" && !key.alt))) {
        // The turn stops, and nothing typed meanwhile is sent: it all waits in the next prompt's box, unsent.
        preview = unsent(withDraft(createEditor(typeAhead?.history ?? []), drafts.get(input)), queue.splice(0));
        drafts.set(input, preview);
        lastSent = undefined;
        onInterrupt();
      } else if (key.type === "key" && key.name === "d" && key.ctrl && !key.alt && preview.text === "" && !preview.search) {
        // Kept, it would quit awl the moment the turn ends, with no word: it is dropped, and the row says so.
        note = CTRL_D_NOTE;
      } else {
        // Ctrl+O waits for the prompt like any key typed ahead: the turn is shown in full once it is over.
        note = key.type === "key" && key.name === "o" && key.ctrl && !key.alt ? CTRL_O_NOTE : "";
        queue.push(key);
        preview = previewKey(preview, key);
      }
    }
    show();
  };
  const onData = (chunk: Buffer | string) => {
    clearTimeout(escapeTimer);
    apply(decoder.push(chunk));
    // A lone ESC is the Escape key only once nothing followed it (an arrow key starts with ESC too).
    if (decoder.pending) escapeTimer = setTimeout(() => apply(decoder.flush()), ESCAPE_WAIT_MS);
  };
  input.on("data", onData);
  input.resume();
  show();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(escapeTimer);
    input.off("data", onData);
    // What is still held back is kept as typed, not taken for an interruption.
    // The row stays up (a pause for a question keeps it in view); whoever owns it clears it when the turn ends.
    queue.push(...decoder.flush());
    restore();
  };
}
