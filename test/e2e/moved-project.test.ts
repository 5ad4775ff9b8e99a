// Sessions follow the project: a session started in a git repository records
// the repository's root commit and the path inside it, so after the checkout
// is moved (or cloned elsewhere) `awl sessions` lists it, marked as from the
// old path, and `awl --resume` continues it there.
import { expect, test } from "bun:test";
import { renameSync } from "node:fs";
import { join } from "node:path";
import { sessionFiles, useE2eFixture } from "./awl";

const fx = useE2eFixture();
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });

function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, env: { ...fx.env, GIT_CONFIG_NOSYSTEM: "1" }, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.toString().trim();
}

test.skipIf(!Bun.which("git"))("after mv proj proj2, awl sessions lists the session and awl --resume in proj2 continues it", async () => {
  git(fx.project, "init", "-q");
  git(fx.project, "add", ".");
  git(fx.project, "commit", "-q", "-m", "first");
  const root = git(fx.project, "rev-list", "--max-parents=0", "HEAD");

  fx.server.reply(text("started in proj"), text("continued in proj2"));
  expect((await fx.run(["-p", "remember the plan"])).code).toBe(0);
  const [file] = sessionFiles(fx.sessions);
  const header = JSON.parse((await Bun.file(file!).text()).split("\n")[0]!);
  expect(header.project).toEqual({ root, path: "." });

  const moved = join(fx.root, "proj2");
  renameSync(fx.project, moved);
  const listed = await fx.run(["sessions"], { cwd: moved });
  expect(listed.stdout.trimEnd()).toEndWith(`  3 messages  remember the plan  (from ${fx.project})`);

  const resumed = await fx.run(["-p", "and now?", "--resume"], { cwd: moved });
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toBe("continued in proj2\n");
  expect(resumed.stderr).toContain(`This session was started in ${fx.project}; its tools now run here, in ${moved}.`);
  expect(sessionFiles(fx.sessions)).toEqual([file!]); // the same file, where it was
  expect(await Bun.file(file!).text()).toContain("and now?");
});
