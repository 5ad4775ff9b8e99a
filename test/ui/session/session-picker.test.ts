// The order and the lines of the session picker (`awl sessions` on a
// terminal, /resume in the REPL): most recently active first, exactly as
// --resume ranks sessions (src/session/store/recent.ts), on real session files.
import { describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listSessions, type SessionInfo } from "../../../src/session";
import { sessionDir, sessionFileName } from "../../../src/session/log/paths";
import { mostRecentSession, newestFirst } from "../../../src/session/store/recent";
import { sessionLabel } from "../../../src/ui/session/session-picker";
import { sessionIdLength, shortSessionId } from "../../../src/ui/session/session-id";
import { useSessionRoot } from "../../session/helpers";

useSessionRoot();
const CWD = "/proj";
const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
const NOW = Date.parse("2026-05-01T12:00:00.000Z");

/** A session file as awl writes it: header, system prompt, then each prompt answered, at the times given. */
function writeSession(id: string, created: string, turns: { at: string; prompt: string }[], cwd = CWD): string {
  const dir = sessionDir(cwd);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lines: object[] = [{ type: "session", version: 1, id, timestamp: created, cwd, ...M }];
  let parent = "s0000000";
  lines.push({ type: "message", id: parent, parentId: null, timestamp: created, message: { role: "system", content: [{ type: "text", text: "sys" }] } });
  turns.forEach(({ at, prompt }, i) => {
    const user = `u${String(i).padStart(7, "0")}`;
    const answer = `a${String(i).padStart(7, "0")}`;
    lines.push({ type: "message", id: user, parentId: parent, timestamp: at, ...M, message: { role: "user", content: [{ type: "text", text: prompt }] } });
    lines.push({
      type: "message",
      id: answer,
      parentId: user,
      timestamp: at,
      message: { role: "assistant", content: [{ type: "text", text: `re: ${prompt}` }], ...M, stopReason: "stop", usage: { input: 10, output: 2 } },
    });
    parent = answer;
  });
  const path = join(dir, sessionFileName(created, id));
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n", { mode: 0o600 });
  return path;
}

/** Ids that share their first 11 characters, as UUIDv7s made within the same 16 ms do. */
const id = (n: number) => `019dc5ba-53${n.toString(16)}6-71a5-ab8f-b1f8709c257${n.toString(16)}`;
const at = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

async function picked(now = NOW): Promise<{ order: string[]; resumed: string | undefined }> {
  const list = await listSessions(CWD);
  return { order: newestFirst(list, now).map((s) => s.id), resumed: mostRecentSession(CWD, process.env, now) };
}

describe("the picker's order", () => {
  test("by last activity, not by creation; its first session is the one --resume continues", async () => {
    const paths = [
      writeSession(id(1), at(300), [{ at: at(300), prompt: "oldest, but active a minute ago" }, { at: at(1), prompt: "again" }]),
      writeSession(id(2), at(200), [{ at: at(200), prompt: "middle" }]),
      writeSession(id(3), at(100), [{ at: at(100), prompt: "newest, quiet since" }]),
    ];
    const { order, resumed } = await picked();
    expect(order).toEqual([id(1), id(3), id(2)]);
    expect(resumed).toBe(paths[0]);
    // awl sessions --plain keeps its order: oldest created first.
    expect((await listSessions(CWD)).map((s) => s.id)).toEqual([id(1), id(2), id(3)]);
  });

  test("a last entry stamped in the future ranks by its file's mtime, as --resume ranks it", async () => {
    writeSession(id(1), at(30), [{ at: at(30), prompt: "half an hour ago" }]);
    const future = writeSession(id(2), at(60), [{ at: "2099-01-01T00:00:00.000Z", prompt: "a clock that jumped" }]);
    writeSession(id(3), at(10), [{ at: at(10), prompt: "ten minutes ago" }]);
    // Written (by the kernel's clock) 20 minutes ago: between the two others.
    utimesSync(future, new Date(NOW - 20 * 60_000), new Date(NOW - 20 * 60_000));
    const { order, resumed } = await picked();
    expect(order).toEqual([id(3), id(2), id(1)]);
    expect(resumed).toBe(join(sessionDir(CWD), sessionFileName(at(10), id(3))));
  });

  test("when its mtime is in the future too, nothing about it can be believed: it comes last", async () => {
    writeSession(id(1), at(30), [{ at: at(30), prompt: "half an hour ago" }]);
    const future = writeSession(id(2), at(60), [{ at: "2099-01-01T00:00:00.000Z", prompt: "a clock that jumped" }]);
    utimesSync(future, new Date("2099-01-01T00:00:00Z"), new Date("2099-01-01T00:00:00Z"));
    const { order, resumed } = await picked();
    expect(order).toEqual([id(1), id(2)]);
    expect(resumed).toBe(join(sessionDir(CWD), sessionFileName(at(30), id(1))));
  });

  test("a timestamp a little ahead (clocks drift, under 5 minutes) is believed", async () => {
    writeSession(id(1), at(30), [{ at: at(-2), prompt: "two minutes ahead" }]);
    writeSession(id(2), at(20), [{ at: at(1), prompt: "a minute ago" }]);
    const { order, resumed } = await picked();
    expect(order).toEqual([id(1), id(2)]);
    expect(resumed).toBe(join(sessionDir(CWD), sessionFileName(at(30), id(1))));
  });

  test("two sessions last active at the same moment: the later file name first, the one --resume takes", async () => {
    writeSession(id(1), at(30), [{ at: at(5), prompt: "same time" }]);
    writeSession(id(2), at(20), [{ at: at(5), prompt: "same time" }]);
    const { order, resumed } = await picked();
    expect(order).toEqual([id(2), id(1)]);
    expect(resumed).toBe(join(sessionDir(CWD), sessionFileName(at(20), id(2))));
  });
});

describe("the picker's lines", () => {
  const info = (over: Partial<SessionInfo>): SessionInfo => ({
    path: "/x",
    id: id(1),
    cwd: CWD,
    created: at(90),
    modified: at(3),
    messageCount: 14,
    compactions: 0,
    firstPrompt: "fix the failing date test in test/parse.test.ts, the one with offsets",
    lastActivity: at(3),
    ...over,
  });

  test("id, last activity, size and the first prompt, cut to the width", () => {
    expect(sessionLabel(info({}), 12, 120, NOW)).toBe("019dc5ba-531  3 min ago       14 msgs  fix the failing date test in test/parse.test.ts, the one with offsets");
    const hundred = sessionLabel(info({}), 12, 100, NOW);
    expect(hundred).toBe("019dc5ba-531  3 min ago       14 msgs  fix the failing date test in test/parse.test.ts, the one wit…");
    expect(Bun.stringWidth(hundred)).toBe(100);
    const narrow = sessionLabel(info({}), 12, 60, NOW);
    expect(Bun.stringWidth(narrow)).toBeLessThanOrEqual(60);
    expect(narrow).toBe("019dc5ba-531  3 min ago       14 msgs  fix the failing date…");
  });

  test("the first prompt is one line, made safe; none, or damage, is said", () => {
    expect(sessionLabel(info({ firstPrompt: "two\nlines \x1b[31mred" }), 11, 100, NOW)).toEndWith("  two lines ␛[31mred");
    expect(sessionLabel(info({ firstPrompt: undefined }), 11, 100, NOW)).toEndWith("  (no prompt)");
    expect(sessionLabel(info({ damaged: "line 3: not complete JSON" }), 11, 100, NOW)).toEndWith("damaged   line 3: not complete JSON");
  });
});

describe("session ids", () => {
  test("the shortest prefix that tells apart this directory's sessions, and the open one before its file exists", () => {
    for (const n of [1, 2, 3]) writeSession(id(n), at(10 * n), [{ at: at(10 * n), prompt: `p${n}` }]);
    expect(sessionIdLength(CWD)).toBe(12); // "019dc5ba-531" … "019dc5ba-533"
    const open = (sessionId: string, cwd = CWD) => ({ sessionId, sessionFile: join(sessionDir(cwd), sessionFileName(at(0), sessionId)) });
    expect(shortSessionId(CWD, open(id(2)))).toBe("019dc5ba-532");
    // Not on disk yet (a new session before its first prompt): told apart from those that are.
    expect(shortSessionId(CWD, open("019dc5ba-5316-71a5-ab8f-000000000000"))).toBe("019dc5ba-5316-71a5-ab8f-0");
    // Another directory's sessions do not lengthen this one's.
    expect(shortSessionId("/elsewhere", open(id(2), "/elsewhere"))).toBe("019dc5ba");
  });

  test("a session of another directory, open here by its whole id, is shown whole: a prefix would not find it from here", () => {
    const path = writeSession(id(1), at(10), [{ at: at(10), prompt: "p1" }]);
    expect(shortSessionId("/elsewhere", { sessionId: id(1), sessionFile: path })).toBe(id(1));
  });
});
