// The session picker as a person uses it in a terminal: typing filters the
// list by title (or first prompt) as it is typed, the highlighted session's
// last prompts and answers show under the list and follow the highlight, a
// search that matches nothing says so and Enter then opens nothing, and Enter
// on a filtered list resumes the session shown. The first screen is drawn from
// the sessions started last; the rest fill in after.
import { expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, sessionFileName } from "../../src/session/log/paths";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });

test.skipIf(!hasTmux)("the picker filters as the person types and previews the highlighted session's last turns", async () => {
  fx.server.reply(text("The parser drops the offset."), text("Docs are rebuilt."), text("Cache entries now expire."), text("welcome back"));
  await fx.run(["-p", "Why does parseDate drop the offset?"]);
  await fx.run(["-p", "Rebuild the docs site"]);
  await fx.run(["-p", "Fix cache eviction"]);

  term.start([AWL, "sessions"], { cwd: fx.project, env: fx.env, width: 120, height: 30 });
  // The most recent session is highlighted; its last prompt and answer show under the list.
  let screen = await term.waitFor(/you: Fix cache eviction[\s\S]*awl: Cache entries now expire\./);
  expect(screen).toContain("Search:");
  expect(screen).toContain("Rebuild the docs site");
  expect(screen).toContain("Why does parseDate drop the offset?");

  // The preview follows the highlight.
  term.keys("Down");
  await term.waitFor(/awl: Docs are rebuilt\./);

  // Typing filters, case-insensitive, by title; the preview is the one session left.
  term.type("PARSE");
  screen = await term.waitFor(/\(1 of 3\)[\s\S]*awl: The parser drops the offset\./);
  expect(screen).not.toContain("Rebuild the docs site");
  expect(screen).not.toContain("Fix cache eviction");

  // Nothing matches: it says so, and Enter opens nothing.
  term.type("zzz");
  await term.waitFor(/No session matches/);
  term.keys("Enter");
  await term.waitFor(/No session to open/);
  term.keys("BSpace", "BSpace", "BSpace");
  await term.waitFor(/\(1 of 3\)/);
  term.keys("Enter");
  screen = await term.waitFor(/resumed [0-9a-f-]+ "Why does parseDate drop the offset\?" · [\s\S]*\/help for commands/);
  expect(screen).toContain("The parser drops the offset."); // its transcript
  term.type("and now?");
  term.keys("Enter");
  await term.waitFor(/welcome back/);
  expect(fx.server.requests.at(-1)!.body.messages[0].content[0].text).toBe("Why does parseDate drop the offset?");
  term.keys("C-d");
  await term.waitFor(/\[exited 0\]/);
}, 30_000);

test.skipIf(!hasTmux)("with more sessions than the first screen reads, the rest fill in: one started long ago and active since comes first, highlighted; the oldest is found by its title", async () => {
  const dir = join(fx.sessions, encodeCwd(fx.project));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  /** A session started `i` minutes into 2026, its prompt sent `active` minutes in. */
  const write = (i: number, title: string, active = i) => {
    const timestamp = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    const sent = new Date(Date.UTC(2026, 0, 1, 0, active)).toISOString();
    const id = Bun.randomUUIDv7();
    const header = { type: "session", version: 1, id, timestamp, cwd: fx.project, provider: "anthropic", model: "claude-sonnet-5-5" };
    const prompt = { type: "message", id: "p1", parentId: null, timestamp: sent, provider: "anthropic", model: "claude-sonnet-5-5", message: { role: "user", content: [{ type: "text", text: title }] } };
    const info = { type: "session_info", id: "t1", parentId: "p1", timestamp: sent, title, source: "auto" };
    const path = join(dir, sessionFileName(timestamp, id));
    writeFileSync(path, [header, prompt, info].map((l) => JSON.stringify(l)).join("\n") + "\n", { mode: 0o600 });
    return path;
  };
  const oldest = write(0, "Ancient zeppelin notes");
  utimesSync(oldest, new Date(0), new Date(0)); // modified in 1970 too
  write(1, "Revived walrus plan", 100); // started among the first, active after all the others
  for (let i = 2; i <= 41; i++) write(i, `session number ${i}`);

  term.start([AWL, "sessions"], { cwd: fx.project, env: fx.env, width: 120, height: 30 });
  await term.waitFor(/session number 41/);
  // Untouched, the highlight is the top row's, whose last prompt the preview shows: --resume's session, once the list is whole.
  await term.waitFor(/you: Revived walrus plan/);
  term.type("zeppelin");
  const screen = await term.waitFor(/\(1 of 42\)[\s\S]*Ancient zeppelin notes/);
  expect(screen).toContain("you: Ancient zeppelin notes");
  term.keys("Escape");
  await term.waitFor(/\[exited 0\]/);
});
