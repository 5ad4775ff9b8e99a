// The prompt on a real terminal: raw mode and bracketed paste for exactly as
// long as a line is being read (or a turn is being watched for Ctrl+C), the
// editor state machine fed by the key decoder, the screen redrawn after each
// chunk of keys.

import { createEditor, type EditorState, handleKey } from "./editor";
import { CLEAR_SCREEN, type Layout, layout, leave, redraw } from "./input-render";
import { type LineResult, readPipedLine } from "./input-pipe";
import { enterRawMode } from "./input-modes";
import { type Key, KeyDecoder } from "./keys";

export type ReadLineResult = LineResult;

export interface ReadLineOptions {
  prompt: string;
  /** Oldest first. A submitted line is appended to this array (unless it repeats the last entry). */
  history: string[];
  input?: NodeJS.ReadStream;
  output?: NodeJS.WriteStream;
  /** Drawn before the second and later lines of a multi-line input; defaults to "· " right-aligned under the prompt. */
  continuation?: string;
}

/** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. */
const ESCAPE_WAIT_MS = 40;

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

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

export function readLine(options: ReadLineOptions): Promise<ReadLineResult> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  // Without a terminal on both ends there is nothing to edit on (or nowhere to
  // draw): read plain lines, which on a terminal input leaves editing to its cooked mode.
  if (!input.isTTY || !output.isTTY) return readPipedLine(input);

  const promptWidth = Bun.stringWidth(options.prompt);
  const continuation = options.continuation ?? "· ".padStart(Math.max(2, promptWidth));
  const decoder = new KeyDecoder();
  const queue = queueFor(input);
  let state: EditorState = createEditor([...options.history]);
  let drawn: Layout | undefined;
  let escapeTimer: ReturnType<typeof setTimeout> | undefined;

  return new Promise((resolve, reject) => {
    const restore = enterRawMode(input, output);
    let settled = false;

    const draw = () => {
      const next = layout(options.prompt, continuation, state.text, state.cursor, output.columns || 80);
      output.write(redraw(drawn, next));
      drawn = next;
    };
    const finish = (result: ReadLineResult | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(escapeTimer);
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

    /** Applies keys in order; keys after a submit or quit are kept as type-ahead for the next prompt. */
    const apply = (keys: Key[]) => {
      for (let i = 0; i < keys.length; i++) {
        const { state: nextState, action } = handleKey(state, keys[i]!);
        if (action?.type === "clearScreen") {
          output.write(CLEAR_SCREEN);
          drawn = undefined;
        } else if (action) {
          // The text as submitted stays on screen (drawn now if it arrived in the same read as Enter).
          draw();
          queue.push(...keys.slice(i + 1));
          if (action.type === "quit") return finish({ kind: "quit" });
          if (nextState.history.length > options.history.length) options.history.push(action.text);
          return finish({ kind: "line", text: action.text });
        }
        state = nextState;
      }
      draw();
    };

    const onData = (chunk: Buffer | string) =>
      guarded(() => {
        clearTimeout(escapeTimer);
        apply(decoder.push(chunk));
        if (!settled && decoder.pending) escapeTimer = setTimeout(() => guarded(() => apply(decoder.flush())), ESCAPE_WAIT_MS);
      });
    const onEnd = () => finish({ kind: "quit" });
    const onResize = () => guarded(draw);

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

/**
 * While a turn runs: Ctrl+C or Esc calls onInterrupt (and drops anything typed
 * before it); other keys are kept as type-ahead for the next prompt. Returns
 * the function that stops watching and restores the terminal.
 */
export function watchInterrupt(
  onInterrupt: () => void,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stdout,
): () => void {
  if (!input.isTTY) return () => {};
  const restore = enterRawMode(input, output);
  const decoder = new KeyDecoder();
  const queue = queueFor(input);
  let escapeTimer: ReturnType<typeof setTimeout> | undefined;
  const apply = (keys: Key[]) => {
    for (const key of keys) {
      if (key.type === "key" && ((key.name === "c" && key.ctrl) || (key.name === "escape" && !key.alt))) {
        queue.length = 0;
        onInterrupt();
      } else {
        queue.push(key);
      }
    }
  };
  const onData = (chunk: Buffer | string) => {
    clearTimeout(escapeTimer);
    apply(decoder.push(chunk));
    // A lone ESC is the Escape key only once nothing followed it (an arrow key starts with ESC too).
    if (decoder.pending) escapeTimer = setTimeout(() => apply(decoder.flush()), ESCAPE_WAIT_MS);
  };
  input.on("data", onData);
  input.resume();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(escapeTimer);
    input.off("data", onData);
    // What is still held back is kept as typed, not taken for an interruption.
    queue.push(...decoder.flush());
    restore();
  };
}
