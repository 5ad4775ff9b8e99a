// The picker's first screen (src/session/store/first-screen.ts): the sessions started
// last, by their file names, read without statting the rest of the folder, and
// the ids the short ids are told apart among, the same as the banner's.
import { expect, test } from "bun:test";
import { mkdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listSessions, shortIdLength } from "../../src/session";
import { newestSessions } from "../../src/session/store/first-screen";
import { sessionDir, sessionFileName } from "../../src/session/log/paths";
import { sessionIdLength } from "../../src/ui/session/session-id";
import { useSessionRoot } from "./helpers";

useSessionRoot();
const M = { provider: "anthropic", model: "m" };

/** A session of `cwd` started `minute` minutes into 2026, with one prompt; its path. */
function write(cwd: string, minute: number, prompt: string): string {
  const timestamp = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
  const id = Bun.randomUUIDv7();
  const header = { type: "session", version: 1, id, timestamp, cwd, ...M };
  const message = { type: "message", id: "p1", parentId: null, timestamp, ...M, message: { role: "user", content: [{ type: "text", text: prompt }] } };
  mkdirSync(sessionDir(cwd), { recursive: true, mode: 0o700 });
  const path = join(sessionDir(cwd), sessionFileName(timestamp, id));
  writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`, { mode: 0o600 });
  return path;
}

test("the sessions started last, however recently older ones were modified; the ids of every file", async () => {
  const paths = Array.from({ length: 30 }, (_, i) => write("/proj", i, `prompt ${i}`));
  utimesSync(paths[0]!, new Date(), new Date()); // the oldest, active just now: it comes in with the whole list
  const { sessions, ids } = newestSessions("/proj", 12);
  expect(sessions.map((s) => s.firstPrompt).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `prompt ${18 + i}`).sort());
  const all = await listSessions("/proj");
  expect(ids).toEqual(all.map((s) => s.id));
  expect(shortIdLength(ids)).toBe(sessionIdLength("/proj"));
});

test("a folder shared with a look-alike cwd: its sessions are passed over and older ones of this cwd read in their place", () => {
  for (let i = 0; i < 10; i++) write("/a-b", i, `mine ${i}`);
  for (let i = 10; i < 15; i++) write("/a/b", i, `theirs ${i}`); // "/a/b" encodes as "/a-b" does: the same folder
  const { sessions } = newestSessions("/a-b", 8);
  expect(sessions.map((s) => s.firstPrompt).sort()).toEqual(["mine 2", "mine 3", "mine 4", "mine 5", "mine 6", "mine 7", "mine 8", "mine 9"]);
  // Reading stops at twice the rows: a folder of look-alike sessions alone is left to the whole list.
  expect(newestSessions("/a-b", 2).sessions).toEqual([]);
});

test("a file renamed by hand: the id its header holds is among the ids too", () => {
  const path = write("/proj", 0, "renamed");
  write("/proj", 1, "kept");
  const renamed = join(sessionDir("/proj"), sessionFileName(new Date(Date.UTC(2026, 0, 1)).toISOString(), "hand-named"));
  renameSync(path, renamed);
  const { sessions, ids } = newestSessions("/proj", 12);
  const header = sessions.find((s) => s.path === renamed)!.id;
  expect(ids).toContain("hand-named");
  expect(ids).toContain(header);
});

test("no folder yet: nothing", () => {
  expect(newestSessions("/nowhere", 12)).toEqual({ sessions: [], ids: [] });
});
