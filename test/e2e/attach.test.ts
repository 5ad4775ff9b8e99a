// `@path` through the compiled binary: Tab completes it at the prompt, the
// request carries the file's content marked as attached, and resuming sends
// the same bytes after the file changed.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const ATTACHED = '<attached path="src/date.ts">\nexport const today = () => "Monday";\n</attached>';

describe.skipIf(!hasTmux)("@path", () => {
  test("@src/da + Tab completes to src/date.ts; the request carries its content, attached; resume sends the same bytes after it changed", async () => {
    mkdirSync(join(fx.project, "src"));
    writeFileSync(join(fx.project, "src", "date.ts"), 'export const today = () => "Monday";\n');
    fx.server.reply(text("Found it."), text("Still Monday."));
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 120, height: 30 });
    await term.waitFor(/\/help for commands/);
    term.type("fix the bug in @src/da");
    term.keys("Tab");
    await term.waitFor(/fix the bug in @src\/date\.ts\s*$/);
    term.keys("Enter");
    expect(await term.waitFor(/Found it\./)).toContain("attached @src/date.ts (1 line)");
    const first = fx.server.requests[0]!.body.messages.at(-1).content;
    expect(first).toMatchObject([{ type: "text", text: "fix the bug in @src/date.ts " }, { type: "text", text: ATTACHED }]);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    // The session is named by what the person typed, not by the file it attached.
    expect(JSON.parse((await fx.run(["sessions", "--json"])).stdout)[0].title).toBe("fix the bug in @src/date.ts");

    writeFileSync(join(fx.project, "src", "date.ts"), 'export const today = () => "Tuesday";\n');
    expect((await fx.run(["-p", "and now?", "--resume"])).code).toBe(0);
    expect(JSON.stringify(fx.server.requests[1]!.body.messages)).toContain(JSON.stringify(ATTACHED));
    expect(JSON.stringify(fx.server.requests[1]!.body.messages)).not.toContain("Tuesday");
  });

  test("@ opens the picker: git's tracked and untracked files, not the ignored; typing filters by fuzzy match, Enter puts the path in", async () => {
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: fx.project, env: { ...fx.env, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" } });
    mkdirSync(join(fx.project, "src"));
    writeFileSync(join(fx.project, "src", "date.ts"), "tracked\n");
    writeFileSync(join(fx.project, ".gitignore"), "build.log\n");
    writeFileSync(join(fx.project, "build.log"), "ignored\n");
    git("init", "-q");
    git("add", "src/date.ts", ".gitignore");
    git("commit", "-qm", "first");
    writeFileSync(join(fx.project, "notes.md"), "untracked\n");
    fx.server.reply(text("Read it."));
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 120, height: 30 });
    await term.waitFor(/\/help for commands/);
    term.type("look at @");
    // The tracked files first, each kind by path.
    const listed = await term.waitFor(/› \.gitignore\n {2}src\/date\.ts\n {2}\.keep\n {2}notes\.md\n/);
    expect(listed).not.toContain("build.log");
    term.type("dte");
    await term.waitFor(/look at @dte\n› src\/date\.ts\s*$/);
    term.keys("Enter");
    await term.waitFor(/look at @src\/date\.ts\s*$/);
    term.keys("Enter");
    await term.waitFor(/Read it\./);
    expect(JSON.stringify(fx.server.requests[0]!.body.messages)).toContain(JSON.stringify('<attached path="src/date.ts">\ntracked\n</attached>'));
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});
