// Titles: a session_info line names a session (until one does, its first
// prompt stands for it); it hangs off the leaf and never
// becomes it; a user title is never replaced by an auto one; and the title is
// found from the end of the file however much was written after it.
import { describe, expect, test } from "bun:test";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { textMessage } from "../../src/conversation";
import { listSessions, messageToDisk, SessionManager } from "../../src/session";
import { findByTitle } from "../../src/session/find-title";
import { readTitle, titleFromPrompt } from "../../src/session/title";
import { useSessionRoot } from "./helpers";

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
  test("until one is written, a session's title is its first prompt's first line, cut by display width; nothing more is written", async () => {
    const s = started("\n  fix   the flaky\tdate test\nand more lines");
    s.close();
    expect(lines(s).map((l) => l.type)).toEqual(["session", "message", "message"]);
    expect((await listSessions("/proj"))[0]!.title).toBe("fix the flaky date test");
    expect(findByTitle("/proj", "FLAKY").here).toHaveLength(1);
    expect(titleFromPrompt("界".repeat(100))).toBe(`${"界".repeat(39)}…`); // 80 columns, wide characters count two
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
