import { describe, expect, test } from "bun:test";
import { createEditor, type EditorAction, type EditorState, handleKey, PASTE_MAX_CHARS, pasteLabel, RECALL_MAX_CHARS, viewOf } from "../../../src/ui/input/editor";
import { KeyDecoder } from "../../../src/ui/input/keys";

/** Types raw terminal bytes into the editor, as the terminal layer would; collects the actions. */
function press(state: EditorState, bytes: string): { state: EditorState; actions: EditorAction[] } {
  const decoder = new KeyDecoder();
  const actions: EditorAction[] = [];
  for (const key of [...decoder.push(bytes), ...decoder.flush()]) {
    const result = handleKey(state, key);
    state = result.state;
    if (result.action) actions.push(result.action);
  }
  return { state, actions };
}

/** The buffer with "|" where the cursor is. */
const show = (s: EditorState) => `${s.text.slice(0, s.cursor)}|${s.text.slice(s.cursor)}`;
const typed = (bytes: string, history: string[] = []) => press(createEditor(history), bytes);

const LEFT = "\x1b[D";
const RIGHT = "\x1b[C";
const UP = "\x1b[A";
const DOWN = "\x1b[B";

describe("editing a line", () => {
  test("typing inserts at the cursor; Left/Right move by whole characters, wide and combined ones included", () => {
    expect(show(typed(`helo${LEFT}l`).state)).toBe("hell|o");
    expect(show(typed(`a你👍🏽e\u0301${LEFT}${LEFT}`).state)).toBe("a你|👍🏽e\u0301");
    expect(show(typed(`ab${LEFT}${LEFT}${LEFT}${RIGHT}`).state)).toBe("a|b");
  });

  test("Home/End and Ctrl+A/Ctrl+E go to the ends of the current line", () => {
    expect(show(typed(`hello${"\x1b[H"}>`).state)).toBe(">|hello");
    expect(show(typed(`hello\x01${"\x1b[F"}`).state)).toBe("hello|");
    expect(show(typed("one\x1b\rtwo\x01").state)).toBe("one\n|two");
    expect(show(typed(`one\x1b\rtwo\x01${UP}\x05`).state)).toBe("one|\ntwo");
  });

  test("Backspace and Delete remove one whole character", () => {
    expect(show(typed(`ab👍🏽c${LEFT}\x7f`).state)).toBe("ab|c");
    expect(show(typed(`abc${LEFT}${LEFT}\x1b[3~`).state)).toBe("a|c");
    expect(show(typed("\x7f\x1b[3~").state)).toBe("|");
  });

  test("Ctrl+U kills to the start of the line, Ctrl+K to its end (joining the next line at its end)", () => {
    expect(show(typed(`hello world${LEFT}${LEFT}\x15`).state)).toBe("|ld");
    expect(show(typed(`hello world${"\x1b[1;5D"}\x0b`).state)).toBe("hello |");
    expect(show(typed(`ab\x1b\rcd${UP}\x05\x0b`).state)).toBe("ab|cd");
  });

  test("Ctrl+W deletes the previous shell word; Alt+Backspace the previous word", () => {
    expect(show(typed("git commit -m foo/bar  \x17").state)).toBe("git commit -m |");
    expect(show(typed("path foo/bar\x1b\x7f").state)).toBe("path foo/|");
    expect(show(typed("path foo/bar\x1b[127;5u").state)).toBe("path foo/|");
  });

  test("Alt+B/Alt+F and Ctrl+Left/Right move by words; Alt+D deletes the next word", () => {
    expect(show(typed("one two-three\x1bb").state)).toBe("one two-|three");
    expect(show(typed("one two-three\x1bb\x1bb\x1b[1;5D").state)).toBe("|one two-three");
    expect(show(typed("one two three\x01\x1bf\x1b[1;5C").state)).toBe("one two| three");
    expect(show(typed("one two three\x01\x1bd").state)).toBe("| two three");
  });

  test("Enter submits the whole buffer wherever the cursor is, then starts empty", () => {
    const { state, actions } = typed(`hello${LEFT}${LEFT}\r`);
    expect(actions).toEqual([{ type: "submit", text: "hello" }]);
    expect(show(state)).toBe("|");
  });

  test("Enter on an empty (or blank) input submits nothing", () => {
    expect(typed("\r").actions).toEqual([]);
    expect(typed("  \r").actions).toEqual([]);
  });
});

describe("typing a newline", () => {
  test.each([
    ["Alt+Enter", "\x1b\r"],
    ["Shift+Enter (kitty)", "\x1b[13;2u"],
    ["Shift+Enter (xterm modifyOtherKeys)", "\x1b[27;2;13~"],
    ["Ctrl+J", "\n"],
  ])("%s inserts a newline without submitting", (_name, seq) => {
    const { state, actions } = typed(`one${seq}two`);
    expect(actions).toEqual([]);
    expect(show(state)).toBe("one\ntwo|");
  });

  test("a trailing backslash then Enter becomes a newline; a backslash mid-line does not", () => {
    const continued = typed("one\\\rtwo");
    expect(continued.actions).toEqual([]);
    expect(show(continued.state)).toBe("one\ntwo|");
    expect(typed(`a\\b${LEFT}\r`).actions).toEqual([{ type: "submit", text: "a\\b" }]);
  });

  test("a bracketed paste inserts its text verbatim, newlines included, and never submits", () => {
    const { state, actions } = typed(`say ${LEFT}\x1b[200~line 1\rline 2\r\x1b[201~X`);
    expect(actions).toEqual([]);
    expect(show(state)).toBe("sayline 1\nline 2\nX| ");
  });
});

describe("Ctrl+C and Ctrl+D", () => {
  test("Ctrl+C with text clears the line; on an empty line it asks the terminal layer to count it toward quitting", () => {
    const cleared = typed("some text\x03");
    expect(cleared.actions).toEqual([]);
    expect(show(cleared.state)).toBe("|");
    expect(typed("\x03").actions).toEqual([{ type: "interrupt" }]);
    expect(typed("x\x03\x03").actions).toEqual([{ type: "interrupt" }]);
  });

  test("Ctrl+D on an empty line quits; with text it deletes the character under the cursor", () => {
    expect(typed("\x04").actions).toEqual([{ type: "quit" }]);
    const deleted = typed(`abc${LEFT}${LEFT}\x04`);
    expect(deleted.actions).toEqual([]);
    expect(show(deleted.state)).toBe("a|c");
    expect(typed("abc\x04").actions).toEqual([]);
  });

  test("Ctrl+L asks the terminal layer to clear the screen", () => {
    expect(typed("ab\x0c").actions).toEqual([{ type: "clearScreen" }]);
  });
});

describe("history", () => {
  test("submitted entries are appended, consecutive duplicates skipped", () => {
    const { state } = typed("a\ra\rb\ra\r");
    expect(state.history).toEqual(["a", "b", "a"]);
  });

  test("Up walks back through history, Down forward, and the draft comes back as it was", () => {
    let { state } = typed("my draft", ["first", "second"]);
    state = press(state, UP).state;
    expect(show(state)).toBe("second|");
    state = press(state, UP).state;
    expect(show(state)).toBe("first|");
    state = press(state, UP).state;
    expect(show(state)).toBe("first|");
    state = press(state, `${DOWN}${DOWN}`).state;
    expect(show(state)).toBe("my draft|");
    state = press(state, DOWN).state;
    expect(show(state)).toBe("my draft|");
  });

  test("a recalled entry is submitted by Enter and becomes the newest entry", () => {
    const { state, actions } = typed(`${UP}${UP}\r`, ["first", "second"]);
    expect(actions).toEqual([{ type: "submit", text: "first" }]);
    expect(state.history).toEqual(["first", "second", "first"]);
  });

  test("in a multi-line buffer Up and Down move between lines, keeping the column, before touching history", () => {
    let { state } = typed("abcdef\x1b\rxy\x1b\r12345", ["old"]);
    state = press(state, `${LEFT}${LEFT}${UP}`).state;
    expect(show(state)).toBe("abcdef\nxy|\n12345");
    state = press(state, UP).state;
    expect(show(state)).toBe("ab|cdef\nxy\n12345");
    state = press(state, `${DOWN}${DOWN}`).state;
    expect(show(state)).toBe("abcdef\nxy\n12|345");
    state = press(state, `${UP}${UP}${UP}`).state;
    expect(show(state)).toBe("old|");
    state = press(state, DOWN).state;
    expect(show(state)).toBe("abcdef\nxy\n12345|");
  });

  test("Down into a multi-line history entry lands on its first line, Up into one on its last", () => {
    const history = ["a1\na2", "b1\nb2", "newest"];
    let { state } = typed(`${UP}${UP}`, history);
    expect(show(state)).toBe("b1\nb2|");
    state = press(state, `${UP}${UP}`).state;
    expect(show(state)).toBe("a1\na2|");
    state = press(state, DOWN).state;
    expect(show(state)).toBe("b1|\nb2");
  });

  test("columns are display columns: moving up from under a wide character", () => {
    const { state } = typed(`你好x\x1b\rabcd${UP}`);
    expect(show(state)).toBe("你好|x\nabcd");
  });
});

const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

describe("a large paste", () => {
  const big = Array.from({ length: 3000 }, (_, i) => `row ${i}`).join("\n");

  test("more than a few lines (or a long line) is one placeholder character; a short one is inserted as it is", () => {
    const { state } = typed(`a ${PASTE(big)} b`);
    expect(state.text).toHaveLength(2 + 2 + 2); // "a " + one marker (a surrogate pair) + " b"
    expect([...state.pastes.values()].map((p) => p.label)).toEqual(["[pasted 3,000 lines]"]);
    expect(typed(PASTE("one\ntwo\nthree")).state.text).toBe("one\ntwo\nthree");
    expect(pasteLabel("x".repeat(PASTE_MAX_CHARS + 1))).toBe("[pasted 2,001 characters]");
    expect(typed(PASTE("x".repeat(PASTE_MAX_CHARS + 1))).state.text).toHaveLength(2);
  });

  test("is sent in full, where it stands among what was typed around it", () => {
    const { actions } = typed(`before ${PASTE(big)} after\r`);
    expect(actions).toEqual([{ type: "submit", text: `before ${big} after` }]);
  });

  test("moves and deletes as one character: Left steps over it, Backspace removes all of it", () => {
    const moved = typed(`ab${PASTE(big)}cd${LEFT}${LEFT}${LEFT}X`);
    expect(press(moved.state, "\r").actions).toEqual([{ type: "submit", text: `abX${big}cd` }]);
    const deleted = typed(`ab${PASTE(big)}\x7fcd\r`);
    expect(deleted.actions).toEqual([{ type: "submit", text: "abcd" }]);
  });

  test("two pastes keep their own texts; Up brings a sent prompt back with its placeholders", () => {
    const other = "other\n".repeat(10);
    const { state, actions } = typed(`${PASTE(big)}+${PASTE(other)}\r`);
    expect(actions).toEqual([{ type: "submit", text: `${big}+${other}` }]);
    const recalled = press(state, UP).state;
    expect(viewOf(recalled, "> ", "· ").text).toHaveLength(5);
    expect(press(recalled, "\r").actions).toEqual([{ type: "submit", text: `${big}+${other}` }]);
  });

  test("a huge prompt recalled from a session's history comes back as a placeholder too, and is sent in full", () => {
    const huge = "y".repeat(RECALL_MAX_CHARS + 1);
    const recalled = typed(UP, ["small", huge]).state;
    expect(recalled.text).toHaveLength(2);
    expect(viewOf(recalled, "> ", "· ").labels!.get(recalled.text)!.label).toBe("[pasted 100,001 characters]");
    expect(press(recalled, "\r").actions).toEqual([{ type: "submit", text: huge }]);
    expect(show(press(recalled, UP).state)).toBe("small|");
  });

  test("typed text cannot forge a marker: private-use characters from plane 16 become U+FFFD", () => {
    const { actions } = typed(`${PASTE(big)}\u{100000}\u{10fffd}\r`);
    expect((actions[0] as { text: string }).text).toEndWith("\ufffd\ufffd");
  });
});

describe("Ctrl+R", () => {
  const history = ["git status", "fix the parser", "run the tests", "fix the tests"];
  const search = (keys: string) => typed(`draft\x12${keys}`, history);

  test("finds the newest entry holding what is typed, case-insensitively; Ctrl+R again finds older ones", () => {
    let { state } = search("FIX");
    expect(viewOf(state, "> ", "· ")).toMatchObject({ prompt: "(reverse-i-search)`FIX': ", text: "fix the tests", cursor: 0 });
    state = press(state, "\x12").state;
    expect(viewOf(state, "> ", "· ").text).toBe("fix the parser");
    state = press(state, "\x12").state;
    expect(viewOf(state, "> ", "· ")).toMatchObject({ prompt: "(failed reverse-i-search)`FIX': ", text: "fix the parser" });
  });

  test("Backspace widens the search again; a query matching nothing shows what was typed", () => {
    expect(viewOf(search("tests\x7f\x7f\x7f\x7f\x7f").state, "> ", "· ").text).toBe("draft");
    expect(viewOf(search("status").state, "> ", "· ").text).toBe("git status");
    expect(viewOf(search("status\x7f\x7f\x7f\x7f").state, "> ", "· ").text).toBe("fix the tests"); // "st", newest first
  });

  test("Enter sends the match; Esc goes back to the draft; another key takes the match to edit", () => {
    expect(search("parser\r").actions).toEqual([{ type: "submit", text: "fix the parser" }]);
    const escaped = search("parser\x1b");
    expect(escaped.state.search).toBeUndefined();
    expect(show(escaped.state)).toBe("draft|");
    expect(show(search("parser\x03").state)).toBe("draft|");
    expect(show(search("parser\t").state)).toBe("fix the parser|");
    const edited = search(`parser${LEFT}X`).state;
    expect(show(edited)).toBe("fix the parseX|r");
    // Down from the match walks on to newer entries, then the draft.
    expect(show(press(edited, DOWN).state)).toBe("run the tests|");
    expect(show(press(edited, `${DOWN}${DOWN}${DOWN}`).state)).toBe("draft|");
  });
});
