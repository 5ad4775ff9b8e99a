import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textMessage } from "../../src/conversation";
import { UsageError } from "../../src/errors";
import { encodeCwd, findSession, listSessions, messageToDisk, SessionManager, sessionIdsByName, shortIdLength } from "../../src/session";
import { sessionDir } from "../../src/session/log/paths";
import { continueRecent } from "../../src/session/store";
import { SPEC, specFile, useSessionRoot } from "./helpers";

useSessionRoot();
const M = { provider: "anthropic", model: "m" };

/** A closed session in `cwd` with a system prompt and the given prompts (each answered). */
function session(cwd: string, ...prompts: string[]): SessionManager {
  const s = SessionManager.init({ cwd, ...M });
  s.appendMessage(messageToDisk(textMessage("system", "sys")));
  for (const p of prompts) {
    s.appendMessage(messageToDisk(textMessage("user", p)), M);
    s.appendMessage(messageToDisk(textMessage("assistant", `re: ${p}`)));
  }
  s.close();
  return s;
}

describe("listing", () => {
  test("shows each session's id, cwd, times, message count and first prompt, oldest first", async () => {
    const a = session("/proj", "first prompt", "more");
    const b = session("/proj", "second prompt");
    const list = await listSessions("/proj");
    expect(list.map((s) => s.id)).toEqual([a.sessionId, b.sessionId]);
    expect(list[0]).toEqual({
      path: a.sessionFile,
      id: a.sessionId,
      cwd: "/proj",
      created: a.header.timestamp,
      modified: expect.any(String),
      messageCount: 5,
      compactions: 0,
      firstPrompt: "first prompt",
      title: "first prompt",
      lastActivity: a.getBranch().at(-1)!.timestamp,
    });
    expect(list[1]!.messageCount).toBe(3);
  });

  test("no sessions (not even a folder) is an empty list", async () => {
    expect(await listSessions("/nowhere")).toEqual([]);
  });

  test("two cwds that encode alike do not see each other's sessions", async () => {
    const dashed = session("/a-b", "in a-b");
    const nested = session("/a/b", "in a/b");
    expect((await listSessions("/a-b")).map((s) => s.id)).toEqual([dashed.sessionId]);
    expect((await listSessions("/a/b")).map((s) => s.id)).toEqual([nested.sessionId]);
  });

  test("a damaged session is listed as damaged with the line, not a crash", async () => {
    const good = session("/proj", "fine");
    const bad = session("/proj", "broken");
    const text = readFileSync(bad.sessionFile, "utf8").split("\n");
    text[2] = "{this is not json";
    writeFileSync(bad.sessionFile, text.join("\n"));
    const list = await listSessions("/proj");
    expect(list.map((s) => s.damaged)).toEqual([undefined, "line 3: not complete JSON"]);
    expect(list[0]!.id).toBe(good.sessionId);
  });

  test("an empty file and a file with no header are listed as damaged", async () => {
    const dir = join(process.env.AWL_SESSION_DIR!, encodeCwd("/proj"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "2026-01-01T00-00-00-000Z_019d0000-0000-7000-8000-000000000000.jsonl"), "");
    writeFileSync(join(dir, "2026-01-02T00-00-00-000Z_019d0000-0000-7000-8000-000000000001.jsonl"), `${SPEC.system}\n`);
    const list = await listSessions("/proj");
    expect(list.map((s) => [s.id, s.created, s.damaged])).toEqual([
      ["019d0000-0000-7000-8000-000000000000", "2026-01-01T00:00:00.000Z", "empty file, not a session (no header line)"],
      ["019d0000-0000-7000-8000-000000000001", "2026-01-02T00:00:00.000Z", "line 1: the first line is not a session header"],
    ]);
  });

  test("a torn last line is not damage: it is left out of the count and the last activity", async () => {
    const s = session("/proj", "one");
    appendFileSync(s.sessionFile, '{"type":"message","id":"torn","parentId":null,"timestamp":"2099-01-01T00:00:00.000Z","message":{"ro');
    const [info] = await listSessions("/proj");
    expect(info?.messageCount).toBe(3);
    expect(info?.lastActivity).toBe(s.getBranch().at(-1)!.timestamp);
    expect(info?.damaged).toBeUndefined();
  });

  test("entries written by another tool in another key order are still counted", async () => {
    const dir = join(process.env.AWL_SESSION_DIR!, encodeCwd("/Users/travis/Code/awl"));
    mkdirSync(dir, { recursive: true });
    const reordered = JSON.stringify({ id: "zz", type: "message", parentId: "c3d4e5f6", timestamp: "2026-04-25T14:00:09.000Z", message: { role: "assistant", content: [] } });
    const other = '{"type":"bookmark","id":"yy","parentId":"zz","timestamp":"2026-04-25T14:00:10.000Z"}';
    writeFileSync(join(dir, "2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl"), `${specFile()}${reordered}\n${other}\n`);
    const [info] = await listSessions("/Users/travis/Code/awl");
    expect(info).toMatchObject({ messageCount: 5, firstPrompt: "What files are in this directory?", lastActivity: "2026-04-25T14:00:10.000Z" });
  });

});

describe("short ids", () => {
  test("at least 8 characters, longer only as far as needed to tell listed ids apart", () => {
    expect(shortIdLength([])).toBe(8);
    expect(shortIdLength(["019dc5ba-53f6", "019dc80a-1111"])).toBe(8);
    expect(shortIdLength(["019dc5ba-53f6-71a5", "019dc5ba-53f7-71a5"])).toBe(13);
    expect(shortIdLength(["019dc5ba-53f6-71a5", "019dc5ba-53f6-71a5"])).toBe(8); // one session listed twice is still one id
    // In any order, and a duplicate apart from its twin is still one id.
    expect(shortIdLength(["019dc5ba-53f7-71a5", "019dc80a-1111", "019dc5ba-53f6-71a5"])).toBe(13);
    expect(shortIdLength(["019dc5ba-53f6-71a5", "019dc80a-1111", "019dc5ba-53f6-71a5"])).toBe(8);
    expect(shortIdLength(["019dc5ba-5", "019dc5ba-53f6"])).toBe(11); // one the other's prefix: the longer one's next character tells them apart
  });
});

describe("finding a session by id prefix", () => {
  test("matches full ids by prefix, case-insensitively; ambiguous prefixes return every candidate", async () => {
    const a = session("/proj", "a");
    const b = session("/proj", "b");
    expect((await findSession("/proj", a.sessionId.toUpperCase())).matches.map((s) => s.id)).toEqual([a.sessionId]);
    let common = 0;
    while (a.sessionId[common] === b.sessionId[common]) common++;
    expect((await findSession("/proj", a.sessionId.slice(0, common))).matches).toHaveLength(2);
    expect(await findSession("/proj", "ffffffff")).toEqual({ matches: [], elsewhere: [] });
  });

  test("a session from another directory (even one that encodes alike) is reported as elsewhere, not matched", async () => {
    const other = session("/a/b", "there");
    expect(await findSession("/a-b", other.sessionId.slice(0, 8))).toEqual({ matches: [], elsewhere: [{ path: other.sessionFile, id: other.sessionId, cwd: "/a/b" }] });
    expect(await findSession("/elsewhere", other.sessionId)).toEqual({ matches: [], elsewhere: [{ path: other.sessionFile, id: other.sessionId, cwd: "/a/b" }] });
  });

  test("a file renamed by hand is still found by the id in its header", async () => {
    const a = session("/proj", "renamed");
    const renamed = a.sessionFile.replace(a.sessionId, "0000aaaa-0000-7000-8000-000000000000");
    renameSync(a.sessionFile, renamed);
    expect((await findSession("/proj", a.sessionId.slice(0, 13))).matches.map((s) => [s.id, s.path])).toEqual([[a.sessionId, renamed]]);
  });

  test("a file named for the id whose header is damaged is still a match, so that opening it can say what is wrong", async () => {
    const a = session("/proj", "soon damaged");
    writeFileSync(a.sessionFile, `{"type":"sess\n${readFileSync(a.sessionFile, "utf8")}`);
    expect((await findSession("/proj", a.sessionId.slice(0, 8))).matches).toEqual([{ path: a.sessionFile, id: a.sessionId }]);
    await expect(SessionManager.open(a.sessionFile)).rejects.toThrow(`${a.sessionFile}:1: `);
  });

  test("the ids for a short id come from the file names, without reading the files", () => {
    const a = session("/proj", "a");
    const b = session("/proj", "b");
    writeFileSync(b.sessionFile, "not a session at all");
    expect(sessionIdsByName("/proj").sort()).toEqual([a.sessionId, b.sessionId].sort());
    expect(sessionIdsByName("/nowhere")).toEqual([]);
  });

  test("anything but hex digits and dashes is a usage error, never a path", async () => {
    for (const hostile of ["", "../x", "a/b", "..", "%2e%2e", "019dc5ba*", " 019d"]) {
      const error = await findSession("/proj", hostile).catch((e) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).not.toContain("\n");
    }
  });
});

describe("continuing the most recent session", () => {
  test("picks the session with the newest last entry, not the newest file", async () => {
    const older = session("/proj", "old");
    session("/proj", "new");
    const reopened = await SessionManager.open(older.sessionFile);
    await Bun.sleep(2); // timestamps have millisecond resolution
    reopened.appendMessage(messageToDisk(textMessage("user", "touch the older one")), M);
    reopened.close();
    const recent = await continueRecent("/proj");
    expect(recent?.sessionId).toBe(older.sessionId);
    recent?.close();
  });

  test("only sessions of this exact cwd count, and none at all gives null", async () => {
    const mine = session("/a/b", "mine");
    const theirs = session("/a-b", "theirs");
    utimesSync(theirs.sessionFile, new Date(), new Date(Date.now() + 60_000));
    const recent = await continueRecent("/a/b");
    expect(recent?.sessionId).toBe(mine.sessionId);
    recent?.close();
    expect(await continueRecent("/empty")).toBeNull();
  });
});

describe("the most recent session, read from each file's last line", () => {
  /** Two sessions in /tail: `older` then `newer`; returns both after `edit` changed the older one's file. */
  function olderMadeRecent(edit: (file: string) => void) {
    const older = session("/tail", "old");
    const newer = session("/tail", "new");
    edit(older.sessionFile);
    return { older, newer };
  }
  // A minute ahead: later than the newer session, and within what a clock may drift (more is not believed, see below).
  const laterEntry = (text: string) =>
    JSON.stringify({ type: "message", id: "later", parentId: null, timestamp: new Date(Date.now() + 60_000).toISOString(), message: { role: "user", content: [{ type: "text", text }] } });

  test("a last line longer than one read-back chunk", async () => {
    const { older } = olderMadeRecent((f) => appendFileSync(f, `${laterEntry("x".repeat(300_000))}\n`));
    expect(await recentId("/tail")).toBe(older.sessionId);
  });

  test("a torn last line (which open trims) and a NUL tail do not date the file: the entry before them does", async () => {
    const { newer } = olderMadeRecent((f) => appendFileSync(f, `${laterEntry("cut").slice(0, 120)}\n${"\0".repeat(70_000)}`));
    expect(await recentId("/tail")).toBe(newer.sessionId);
  });

  test("a line of another writer's key order is parsed for its timestamp", async () => {
    const reordered = JSON.stringify({ timestamp: new Date(Date.now() + 60_000).toISOString(), type: "message", id: "x", parentId: null, message: { role: "user", content: [] } });
    const { older } = olderMadeRecent((f) => appendFileSync(f, `${reordered}\n`));
    expect(await recentId("/tail")).toBe(older.sessionId);
  });

  test("a header-only file counts by its header; an empty file is passed over", async () => {
    const { newer } = olderMadeRecent(() => {});
    const s = SessionManager.init({ cwd: "/tail", ...M });
    s.appendMessage(messageToDisk(textMessage("system", "sys"))); // creates the file with header + system
    s.close();
    writeFileSync(join(sessionDir("/tail"), "2099-01-01T00-00-00-000Z_019dc5ba-0000-7000-8000-000000000000.jsonl"), "");
    expect(await recentId("/tail")).toBe(s.sessionId);
    expect(newer.sessionId).not.toBe(s.sessionId);
  });
});

describe("a clock that jumped does not take over --resume", () => {
  const HOUR = 3_600_000;
  /** A session of /clock whose every line was stamped in 2099 (made under a wrong clock); its file last changed `mtime`. */
  function fromTheFuture(mtime: Date): SessionManager {
    const s = session("/clock", "made in 2099");
    const lines = readFileSync(s.sessionFile, "utf8").replace(/"timestamp":"[^"]+"/g, '"timestamp":"2099-01-01T00:00:00.000Z"');
    writeFileSync(s.sessionFile, lines);
    utimesSync(s.sessionFile, mtime, mtime);
    return s;
  }

  test("a last entry more than 5 minutes ahead is ranked by the file's modification time: a later session wins", async () => {
    fromTheFuture(new Date(Date.now() - HOUR));
    const later = session("/clock", "made with the right clock");
    expect(await recentId("/clock")).toBe(later.sessionId);
  });

  test("ranked by its modification time, the future-stamped session still wins when it was the last one touched", async () => {
    const earlier = session("/clock", "earlier");
    utimesSync(earlier.sessionFile, new Date(Date.now() - HOUR), new Date(Date.now() - HOUR));
    const future = fromTheFuture(new Date());
    expect(await recentId("/clock")).toBe(future.sessionId);
  });

  test("when its modification time is in the future too, it ranks below every other session, and alone it is still resumed", async () => {
    const future = fromTheFuture(new Date(Date.now() + 100 * 24 * HOUR));
    expect(await recentId("/clock")).toBe(future.sessionId);
    const other = session("/clock", "any real session");
    utimesSync(other.sessionFile, new Date(Date.now() - 48 * HOUR), new Date(Date.now() - 48 * HOUR));
    expect(await recentId("/clock")).toBe(other.sessionId);
  });

  test("up to 5 minutes ahead is believed (clocks drift): that session wins", async () => {
    const drifted = session("/clock", "drifted");
    session("/clock", "newer by the file");
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString();
    appendFileSync(drifted.sessionFile, `${JSON.stringify({ type: "message", id: "ahead", parentId: null, timestamp: ahead, message: { role: "user", content: [] } })}\n`);
    utimesSync(drifted.sessionFile, new Date(Date.now() - HOUR), new Date(Date.now() - HOUR));
    expect(await recentId("/clock")).toBe(drifted.sessionId);
  });
});

async function recentId(cwd: string): Promise<string | undefined> {
  const recent = await continueRecent(cwd);
  recent?.close();
  return recent?.sessionId;
}

describe("listing what cannot be read", () => {
  test("an entry that cannot be read as a file is listed as damaged with the reason", async () => {
    session("/proj", "fine");
    mkdirSync(join(process.env.AWL_SESSION_DIR!, encodeCwd("/proj"), "2026-01-01T00-00-00-000Z_019d0000-0000-7000-8000-000000000000.jsonl"));
    const list = await listSessions("/proj");
    expect(list.map((s) => s.damaged)).toEqual(["cannot be read (EISDIR)", undefined]);
  });
});
