// A subagent's row under the output (docs/subagents.md): its step and its
// count of calls. The row is redrawn when it changed, not at each delta of a
// child's streamed answer (its time is the status line's tick to redraw).
import { expect, test } from "bun:test";
import { SubagentRows } from "../../../src/ui/live/subagent-rows";
import { colorsFor } from "../../../src/ui/render/colors";

const plain = colorsFor({ isTTY: false });

test("a row changes with a child's first event, a new step and each call, never with a delta of its answer", () => {
  const rows = new SubagentRows(() => 0);
  expect(rows.event("c1", "read the notes", { type: "requestStart", provider: "anthropic", model: "m" })).toBe(true);
  expect(rows.event("c1", "read the notes", { type: "blockStart", index: 0, block: { type: "text", text: "" } })).toBe(true);
  expect(rows.event("c1", "read the notes", { type: "delta", index: 0, text: "Reading" })).toBe(false);
  expect(rows.event("c1", "read the notes", { type: "requestStart", provider: "anthropic", model: "m" })).toBe(true);
  expect(rows.event("c1", "read the notes", { type: "requestStart", provider: "anthropic", model: "m" })).toBe(false);
  expect(rows.event("c1", "read the notes", { type: "toolStart", id: "t1", name: "read", summary: "notes.txt" })).toBe(true);
  expect(rows.event("c1", "read the notes", { type: "toolStart", id: "t2", name: "read", summary: "notes.txt" })).toBe(true); // same step, one more call
  expect(rows.rows(plain, 80)).toEqual(["  ⎿ read the notes: read notes.txt · 2 tool calls · 0s"]);
});
