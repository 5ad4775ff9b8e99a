// What /rewind lists (src/session/tree/rewind-points.ts), read from a real session
// file: the prompts of the active path before each turn's files, and earlier
// rewinds told from a tool call's checkpoint entries by where they hang.
import { describe, expect, test } from "bun:test";
import { SessionManager } from "../../src/session";
import { rewindPoints } from "../../src/session/tree/rewind-points";
import { readWholeLog } from "../../src/session/tree/whole-log";
import { useSessionRoot } from "./helpers";

useSessionRoot();

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const text = (role: "user" | "assistant", t: string) => ({ role, content: [{ type: "text" as const, text: t }] });
const change = (path: string) => ({ path, before: null, after: "a".repeat(64), mode: null });

/** prompt 1 (edits /p/a through a tool call), prompt 2 (no tools). */
function twoTurns() {
  const session = SessionManager.init({ cwd: "/p", ...model });
  const system = session.appendMessage({ role: "system", content: [{ type: "text", text: "system" }] });
  session.appendMessage(text("user", "prompt 1"), model);
  session.appendMessage({ role: "assistant", content: [{ type: "toolUse", id: "t1", name: "write", input: "{}" }] });
  session.appendFileChange(change("/p/a"));
  session.appendMessage({ role: "user", content: [{ type: "toolResult", toolUseId: "t1", content: "ok" }] }, model);
  const answer1 = session.appendMessage(text("assistant", "answer 1"));
  session.appendMessage(text("user", "prompt 2"), model);
  const answer2 = session.appendMessage(text("assistant", "answer 2"));
  return { session, ids: { system, answer1, answer2 } };
}

const points = (session: SessionManager) => rewindPoints(readWholeLog(session.sessionFile), session.getLeafId());

describe("rewind points", () => {
  test("the prompts, newest first, each going back to its parent with the files its turn changed", () => {
    const { session, ids } = twoTurns();
    expect(points(session)).toMatchObject([
      { kind: "prompt", text: "prompt 2", targetId: ids.answer1, files: [] },
      { kind: "prompt", text: "prompt 1", targetId: ids.system, files: ["/p/a"] },
    ]);
    session.close();
  });

  test("a rewind (its file_change entries, then the move) is listed, newest, going back to where it started; a tool call's entries are not", () => {
    const { session, ids } = twoTurns();
    session.appendFileChange(change("/p/b"));
    session.appendFileChange(change("/p/c"));
    session.moveLeaf(ids.answer1);
    const listed = points(session);
    expect(listed[0]).toMatchObject({ kind: "rewind", targetId: ids.answer2, files: ["/p/b", "/p/c"] });
    expect(listed.filter((p) => p.kind === "rewind")).toHaveLength(1);
    expect(listed.slice(1).map((p) => p.text)).toEqual(["prompt 1"]);
    session.close();
  });

  test("a rewind of the files only is listed; one that goes back to where the leaf is now is not", () => {
    const { session, ids } = twoTurns();
    session.appendFileChange(change("/p/b"));
    expect(points(session)[0]).toMatchObject({ kind: "rewind", targetId: ids.answer2, files: ["/p/b"] });
    session.moveLeaf(ids.answer2);
    expect(points(session).filter((p) => p.kind === "rewind")).toEqual([]);
    session.close();
  });

  test("two undo rows that look alike say where each goes: back to after one prompt or another", () => {
    const { session, ids } = twoTurns();
    session.moveLeaf(ids.answer1); // before prompt 2
    session.moveLeaf(ids.system); // before prompt 1
    const rewinds = points(session).filter((p) => p.kind === "rewind");
    expect(rewinds.map((p) => p.goesTo)).toEqual([
      { when: "after", prompt: "prompt 1" },
      { when: "after", prompt: "prompt 2" },
    ]);
    session.close();
  });
});
