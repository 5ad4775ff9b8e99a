// Titles: a session_info line names a session, written from its first prompt
// at once (a session from before titles is named by its first prompt when
// listed); it hangs off the leaf and never
// becomes it; a user title is never replaced by an auto one; and the title is
// found from the end of the file however much was written after it.
import { describe, expect, test } from "bun:test";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { textMessage } from "../../src/conversation";
import { listSessions, messageToDisk, SessionManager } from "../../src/session";
import { findByTitle } from "../../src/session/store/find-title";
import { readTitle, titleFromPrompt } from "../../src/session/log/title";
import { SPEC, useSessionRoot, writeExample } from "./helpers";

useSessionRoot();
const M = { provider: "anthropic", model: "m" };

function started(prompt: string): SessionManager {
  const s = SessionManager.init({ cwd: "/proj", ...M });
  s.appendMessage(messageToDisk(textMessage("system", "sys")));
  s.appendMessage(messageToDisk(textMessage("user", prompt)), M);
  return s;
}

const lines = (s: SessionManager) => readFileSync(s.sessionFile, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));

function fileTitle(path: string) {
  const fd = openSync(path, "r");
  try {
    return readTitle(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

describe("titles", () => {
  test("a new session's first prompt names it at once: its first line, cut by display width, written off the prompt", async () => {
    const s = started("\n  fix   the flaky\tdate test\nand more lines");
    const prompt = s.getLeafId();
    s.appendMessage(messageToDisk(textMessage("assistant", "done")));
    s.appendMessage(messageToDisk(textMessage("user", "and another thing")), M);
    s.close();
    expect(lines(s).map((l) => l.type)).toEqual(["session", "message", "message", "session_info", "message", "message"]);
    expect(lines(s)[3]).toEqual({ type: "session_info", id: expect.any(String), parentId: prompt, timestamp: expect.any(String), title: "fix the flaky date test", source: "auto" });
    expect(fileTitle(s.sessionFile)).toEqual({ title: "fix the flaky date test", source: "auto" });
    expect((await listSessions("/proj"))[0]!.title).toBe("fix the flaky date test");
    expect(findByTitle("/proj", "FLAKY").here).toHaveLength(1);
    expect(titleFromPrompt("界".repeat(100))).toBe(`${"界".repeat(39)}…`); // 80 columns, wide characters count two
  });

  test("a session written before titles existed is named by its first prompt when listed; resuming it writes no title", async () => {
    const path = writeExample([SPEC.header, SPEC.system, SPEC.stampedUser, SPEC.assistant.replace('"stopReason":"toolUse"', '"stopReason":"stop"')]);
    const s = await SessionManager.open(path);
    s.appendMessage(messageToDisk(textMessage("user", "and now?")), M);
    s.close();
    expect(lines(s).map((l) => l.type)).toEqual(["session", "message", "message", "message", "message"]);
    const cwd = JSON.parse(SPEC.header).cwd;
    expect((await listSessions(cwd))[0]!.title).toBe("What files are in this directory?");
  });

  test("a title hangs off the leaf and never becomes it: the answer follows the prompt, not the title", () => {
    const s = started("first");
    const prompt = s.getLeafId();
    s.setTitle("named", "user");
    expect(lines(s).at(-1).parentId).toBe(prompt);
    s.appendMessage(messageToDisk(textMessage("assistant", "answer")));
    expect(lines(s).at(-1).parentId).toBe(prompt);
    expect(s.getBranch().map((e) => e.type)).toEqual(["message", "message", "message"]);
    s.close();
  });

  test("a user title wins: no auto title replaces it, in the file, on resume and in the listing", async () => {
    const s = started("first");
    expect(s.setTitle("Release checklist", "user")).toBe(true);
    expect(s.setTitle("model idea", "auto", { provider: "anthropic", model: "small", usage: { input: 10, output: 3 } })).toBe(false);
    expect(s.title()).toEqual({ title: "Release checklist", source: "user" });
    s.close();
    const again = await SessionManager.open(s.sessionFile);
    expect(again.title()?.title).toBe("Release checklist");
    again.close();
    expect((await listSessions("/proj"))[0]!.title).toBe("Release checklist");
  });

  test("an auto title from a model carries its request's provider, model and usage", () => {
    const s = started("first");
    s.setTitle("Flaky date test", "auto", { provider: "anthropic", model: "small", usage: { input: 10, output: 3 } });
    expect(lines(s).at(-1)).toEqual(expect.objectContaining({ title: "Flaky date test", source: "auto", provider: "anthropic", model: "small", usage: { input: 10, output: 3 } }));
    s.close();
  });

  test("the title survives 10 MB of later writes, and --resume by a part of it finds the session", () => {
    const s = started("first");
    s.setTitle("Quarterly Invoice Export", "user");
    const big = "x".repeat(100_000);
    for (let i = 0; i < 50; i++) {
      s.appendMessage(messageToDisk(textMessage("user", `${i} ${big}`)), M);
      s.appendMessage(messageToDisk(textMessage("assistant", big)));
    }
    s.close();
    expect(fstatSync(openSync(s.sessionFile, "r")).size).toBeGreaterThan(10_000_000);
    expect(fileTitle(s.sessionFile)).toEqual({ title: "Quarterly Invoice Export", source: "user" });
    expect(findByTitle("/proj", "invoice").here.map((m) => m.path)).toEqual([s.sessionFile]);
    expect(findByTitle("/elsewhere", "invoice")).toMatchObject({ here: [], elsewhere: [{ cwd: "/proj", title: "Quarterly Invoice Export" }] });
  });
});
