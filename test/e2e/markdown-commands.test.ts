// Markdown commands in the REPL, as Claude Code's custom slash commands are
// written: a file in $XDG_CONFIG_HOME/awl/commands/ or the project's
// .claude/commands/ is a command /help lists, Tab completes, and typing it
// sends its text with the arguments put in, its @files attached and its
// !`command` parts run first (as bash calls are) with their output in place.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

describe.skipIf(!hasTmux)("Markdown commands in the REPL", () => {
  test("listed by /help, completed by Tab, and sent with $ARGUMENTS, $1 and an @file put in; a clash with a built-in is named", async () => {
    const config = join(fx.root, "config");
    mkdirSync(join(config, "awl", "commands"), { recursive: true });
    writeFileSync(
      join(config, "awl", "commands", "review-file.md"),
      "---\ndescription: Review one file closely\nargument-hint: <file> [focus]\n---\nReview @$1 with attention to $2.\nAll arguments: $ARGUMENTS\n",
    );
    mkdirSync(join(fx.project, ".claude", "commands"), { recursive: true });
    writeFileSync(join(fx.project, ".claude", "commands", "help.md"), "This file tries to replace /help.\n");
    writeFileSync(join(fx.project, "todo.txt"), "- fix the bug\n");
    fx.server.reply({ blocks: [{ type: "text", text: "Reviewed." }] });
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, XDG_CONFIG_HOME: config }, width: 160 });
    await term.waitFor(/\/help for commands/);
    await term.waitFor(/help\.md: \/help is already a built-in command; this file is skipped/);

    term.type("/help");
    term.keys("Enter");
    const help = await term.waitFor(/Added commands/);
    expect(help).toMatch(/\/review-file <file> \[focus\]\s+Review one file closely \(yours\)/);

    term.type("/review-f");
    term.keys("Tab");
    term.type('todo.txt "naming"'); // after the space the completion added
    await term.waitFor(/› \/review-file todo\.txt "naming"/);
    term.keys("Enter");
    await term.waitFor(/Reviewed\./);
    const sent = JSON.stringify(fx.server.requests[0]!.body.messages.at(-1));
    expect(sent).toContain("Review @todo.txt with attention to naming.");
    expect(sent).toContain('All arguments: todo.txt \\"naming\\"');
    expect(sent).toContain(JSON.stringify('<attached path="todo.txt">\n- fix the bug\n</attached>').slice(1, -1));
  });

  test("a !`git status` part runs before the prompt goes, shown as a bash call, and its output is in the request in its place", async () => {
    const config = join(fx.root, "config");
    mkdirSync(join(config, "awl", "commands"), { recursive: true });
    writeFileSync(join(config, "awl", "commands", "commit-msg.md"), "---\ndescription: Write a commit message\n---\nChanges: !`git status --short`\nWrite a commit message for them.\n");
    for (const args of [["init", "-q"], ["config", "user.email", "t@example.test"], ["config", "user.name", "T"]]) Bun.spawnSync(["git", ...args], { cwd: fx.project });
    writeFileSync(join(fx.project, "new-feature.ts"), "export {};\n");
    fx.server.reply({ blocks: [{ type: "text", text: "Add the new feature." }] });
    // Ask mode: git status only reads, so it runs without a question.
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, XDG_CONFIG_HOME: config, AWL_APPROVE: "ask" }, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.send("/commit-msg");
    const screen = await term.waitFor(/Add the new feature\./);
    expect(screen).toContain("git status --short");
    const text = fx.server.requests[0]!.body.messages.at(-1).content.map((b: { text?: string }) => b.text ?? "").join("");
    expect(text).toContain("Changes: ?? .keep\n?? new-feature.ts\nWrite a commit message for them.");
    expect(text).not.toContain("!`");
  });

  test("a project's allowed-tools: listed by the trust question; ignored (and said so) until the project is trusted, then its call runs unasked", async () => {
    mkdirSync(join(fx.project, ".claude", "commands"), { recursive: true });
    writeFileSync(join(fx.project, ".claude", "commands", "make.md"), "---\nallowed-tools: Bash(touch:*)\n---\nMake the file.\n");
    const touch = (path: string) => ({ blocks: [{ type: "toolUse" as const, name: "bash", input: { command: `touch ${path}` } }] });
    fx.server.reply(touch("untrusted.txt"), { blocks: [{ type: "text", text: "Not made." }] }, touch("trusted.txt"), { blocks: [{ type: "text", text: "Made." }] });
    const env = { ...fx.env, AWL_APPROVE: "ask" };

    term.start([AWL], { cwd: fx.project, env, width: 200 });
    expect(await term.waitFor(/Trust this project/)).toContain("command /make in .claude/commands/make.md: Bash(touch:*) (run without asking, during its turn)");
    term.keys("n");
    await term.waitFor(/\/help for commands/);
    term.send("/make");
    expect(await term.waitFor(/Run it\?/)).toContain("This project is not trusted, so the allowed-tools of its Markdown commands are ignored");
    term.type("n");
    await term.waitFor(/Why not\?/);
    term.keys("Enter");
    await term.waitFor(/Not made\./);
    expect(existsSync(join(fx.project, "untrusted.txt"))).toBe(false);
    term.close();

    term.start([AWL], { cwd: fx.project, env, width: 200 });
    await term.waitFor(/Trust this project/);
    term.keys("y");
    await term.waitFor(/\/help for commands/);
    term.send("/make");
    expect(await term.waitFor(/Made\./)).not.toContain("Run it?");
    expect(existsSync(join(fx.project, "trusted.txt"))).toBe(true);
  });

  test("in read-only mode a !`command` part that may change files is refused: the prompt goes with a note in its place, and nothing is made", async () => {
    const config = join(fx.root, "config");
    mkdirSync(join(config, "awl", "commands"), { recursive: true });
    writeFileSync(join(config, "awl", "commands", "stamp.md"), "Stamp: !`touch stamped.txt`\nSay whether it worked.\n");
    fx.server.reply({ blocks: [{ type: "text", text: "It was refused." }] });
    term.start([AWL, "--approve", "read-only"], { cwd: fx.project, env: { ...fx.env, XDG_CONFIG_HOME: config }, width: 160 });
    await term.waitFor(/\/help for commands/);
    term.send("/stamp");
    await term.waitFor(/It was refused\./);
    const text = fx.server.requests[0]!.body.messages.at(-1).content.map((b: { text?: string }) => b.text ?? "").join("");
    expect(text).toContain("Stamp: [`touch stamped.txt` did not succeed: Not run: awl is in read-only mode, which refuses commands that may change files.");
    expect(text).toContain("Say whether it worked.");
    expect(existsSync(join(fx.project, "stamped.txt"))).toBe(false);
  });
});
