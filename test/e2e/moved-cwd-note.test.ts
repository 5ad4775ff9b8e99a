// A session continued in another directory than the one it started in: the
// model is told once, in the next prompt's message, where its tools now run.
// The note is awl's, not the person's: it is not offered by Up, not shown as a
// typed prompt in the resumed transcript, not exported and not searched.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const NOTE = "[awl] The working directory is now";

/** The text blocks of a request's last user message. */
const lastPrompt = (request: { body: any }) => request.body.messages.filter((m: any) => m.role === "user").at(-1).content.filter((b: any) => b.type === "text").map((b: any) => b.text);

function git(cwd: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, env: { ...fx.env, GIT_CONFIG_NOSYSTEM: "1" }, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
}

/** A session made in the project (A), a git checkout, resumed by id twice from a clone of it (B): the same project elsewhere. */
async function movedSession(): Promise<{ id: string; other: string }> {
  const other = join(fx.root, "clone");
  git(fx.project, "init", "-q");
  git(fx.project, "add", ".");
  git(fx.project, "commit", "-q", "-m", "first");
  git(fx.root, "clone", "-q", fx.project, other);
  fx.server.reply(text("made in A"), text("first in B"), text("second in B"));
  expect((await fx.run(["-p", "start in A"])).code).toBe(0);
  const [file] = sessionFiles(fx.sessions);
  const id = JSON.parse((await Bun.file(file!).text()).split("\n")[0]!).id as string;
  expect((await fx.run(["-p", "first prompt in B", "--resume", id], { cwd: other })).code).toBe(0);
  expect((await fx.run(["-p", "second prompt in B", "--resume", id], { cwd: other })).code).toBe(0);
  return { id, other };
}

test.skipIf(!Bun.which("git"))("resumed from another directory: the next prompt carries the note before its text, once", async () => {
  const { id, other } = await movedSession();
  expect(lastPrompt(fx.server.requests[0]!)).toEqual(["start in A"]);
  expect(lastPrompt(fx.server.requests[1]!)).toEqual([`${NOTE} ${other}\n(the session started in ${fx.project}; tools, paths and commands now run in ${other})`, "first prompt in B"]);
  expect(lastPrompt(fx.server.requests[2]!)).toEqual(["second prompt in B"]); // told already: the log's note is found on the path

  const exported = await fx.run(["export", id], { cwd: other });
  expect(exported.code).toBe(0);
  expect(exported.stdout).toContain("first prompt in B");
  expect(exported.stdout).not.toContain(NOTE);
  expect((await fx.run(["sessions", "search", "first prompt in B", "--all"], { cwd: other })).stdout).toContain(id.slice(0, 8));
  const found = await fx.run(["sessions", "search", "working directory is now", "--all"], { cwd: other });
  expect(found.stdout).not.toContain(id.slice(0, 8));
});

describe.skipIf(!hasTmux || !Bun.which("git"))("in a real terminal", () => {
  test("the resumed transcript and Up show the person's prompts, never the note", async () => {
    const { id, other } = await movedSession();
    term.start([AWL, "--resume", id], { cwd: other, env: fx.env, width: 140 });
    const screen = await term.waitFor(/\/help for commands/);
    expect(screen).toContain("second prompt in B");
    expect(screen).toContain("first prompt in B");
    expect(screen).not.toContain(NOTE);
    // The note sits before "first prompt in B" in its message: were it history, the third Up would recall it.
    for (const expected of ["second prompt in B", "first prompt in B", "start in A"]) {
      term.keys("Up");
      expect(await term.waitFor(new RegExp(`/help for commands\\n› ${expected}\\n`))).not.toContain(NOTE);
    }
    term.keys("C-u", "C-d");
    await term.waitFor(/\[exited 0\]/);
    expect(term.history()).not.toContain(NOTE);
  });
});
