// Markdown commands in the REPL, as Claude Code's custom slash commands are
// written: a file in $XDG_CONFIG_HOME/awl/commands/ or the project's
// .claude/commands/ is a command /help lists, Tab completes, and typing it
// sends its text with the arguments put in.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
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
    expect(sent).toContain("Contents of todo.txt:");
    expect(sent).toContain("- fix the bug");
  });
});
