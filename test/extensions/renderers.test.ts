// An extension's renderer of its entries (docs/extensions.md), as the REPL
// shows them in a resumed transcript and live: its lines, made safe to show
// and cut to fit; one that throws falls back to the dim line and is named
// once; without the extension, the dim line stays. `awl extensions` lists
// what each extension renders.
import { expect, test } from "bun:test";
import { messageToDisk, SessionManager } from "../../src/session";
import type { Awl } from "../../src/extensions/api";
import { colorsFor } from "../../src/ui/render/colors";
import { TurnRenderer } from "../../src/ui/live/render";
import { renderTranscript } from "../../src/ui/session/transcript";
import { useSessionRoot } from "../session/helpers";
import { CONTROL } from "../support/terminal-text";
import { hostWith as loadedHost } from "../support/extension-host";

useSessionRoot();

const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
const plain = colorsFor({ isTTY: false });

const hostWith = (module: (awl: Awl) => void) => loadedHost([module]);

/** A session of one turn, then an extension's entries after its answer. */
function session(): SessionManager {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  s.appendMessage(messageToDisk({ role: "user", content: [{ type: "text", text: "play" }] }), M);
  s.appendMessage(messageToDisk({ role: "assistant", content: [{ type: "text", text: "Moved." }] }, { ...M, stopReason: "stop" }));
  s.appendCustom({ customType: "board", data: { rows: ["x.o", ".x.", "o.x"] } });
  s.appendCustom({ customType: "board", data: { rows: "not rows" } });
  s.appendCustomMessage({ customType: "board", content: "Your move.\x1b]0;pwned\x07", display: true });
  s.appendCustom({ customType: "other", data: { n: 1 } });
  return s;
}

const BOARD = (awl: Awl) =>
  awl.registerRenderer("board", (entry) => {
    if (entry.kind === "custom_message") return `» ${entry.content}`;
    const rows = (entry.data as { rows: unknown }).rows;
    if (!Array.isArray(rows)) throw new Error("no rows");
    return [...rows.map(String), ...Array.from({ length: 30 }, (_, i) => `filler ${i}`)];
  });

test("a resumed transcript shows an entry as its renderer gives it, inert and bounded; a failing renderer and a type without one keep the dim line", () => {
  const s = session();
  const { host, named } = hostWith(BOARD);
  const lines = renderTranscript(s, plain, 40, {}, {}, undefined, (entry) => host.renderEntry(entry)).split("\n");
  const at = lines.indexOf("x.o");
  expect(lines.slice(at, at + 3)).toEqual(["x.o", ".x.", "o.x"]);
  expect(lines).toContain("… 21 more lines"); // 33 lines, 12 shown
  expect(lines).toContain("· board entry"); // it threw for the second entry: the line any awl shows
  expect(lines).toContain("» Your move.␛]0;pwned␇"); // inert
  expect(lines).toContain("· other entry");
  expect(lines.join("\n")).not.toMatch(CONTROL);
  expect(lines.every((line) => Bun.stringWidth(line) <= 40)).toBe(true);
  // Named once, however often the transcript is drawn.
  renderTranscript(s, plain, 40, {}, {}, undefined, (entry) => host.renderEntry(entry));
  expect(named).toEqual(["/ext/0.ts: the renderer of board entries failed: no rows"]);

  // Without the extension: the dim lines, as before renderers.
  const without = renderTranscript(s, plain, 40).split("\n");
  expect(without.filter((line) => line.startsWith("· board"))).toEqual(["· board entry", "· board entry", "· board: Your move.␛]0;pwned␇"]);
  s.close();
});

test("live, an entry an extension renders is shown as it is written; one without a renderer stays quiet", () => {
  const s = session();
  const { host } = hostWith(BOARD);
  const out = { text: "", columns: 40, isTTY: false, write(chunk: string) {
    this.text += chunk;
    return true;
  } };
  const renderer = new TurnRenderer(out as never, plain, undefined, Date.now, (entry) => host.renderEntry(entry));
  const entries = s.getBranch().filter((e) => e.type === "custom" || e.type === "custom_message");
  renderer.handle({ type: "extensionEntries", entries: entries as never });
  expect(out.text.split("\n").slice(0, 3)).toEqual(["x.o", ".x.", "o.x"]);
  expect(out.text).toContain("» Your move.␛]0;pwned␇");
  expect(out.text).not.toContain("other");
  s.close();
});

test("a second renderer of a type is not added and is named; what each extension renders is kept for `awl extensions`; `on` takes only its events", () => {
  const { host, named } = hostWith((awl) => {
    awl.registerRenderer("board", () => "one");
    awl.registerRenderer("board", () => "two");
    awl.registerRenderer("score", () => "three");
  });
  expect(named).toEqual(["/ext/0.ts: the renderer of board entries is not added: it registered one already"]);
  expect(host.modules[0]).toMatchObject({ renderers: ["board", "score"] });
  expect(() => hostWith((awl) => awl.on("before_everything" as never, (() => {}) as never))).toThrow('on: "before_everything" is not an event');
});
