// Ctrl+G through the compiled binary in a real terminal: the prompt goes to
// $EDITOR in a private file, the terminal is handed over and taken back, and
// the edited text is in the input box; an editor that fails leaves it as it was.
import { describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

/** An editor that records its file's mode and appends a line, then exits with `code`. */
function editor(code: number): string {
  const path = join(fx.root, `editor-${code}.sh`);
  writeFileSync(path, `#!/bin/sh\nstat -c %a "$1" > ${join(fx.root, "mode")}\nprintf '\\nappended by the editor\\n' >> "$1"\nexit ${code}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!hasTmux)("Ctrl+G", () => {
  test("the editor's line is in the input box, sent as edited; a failing editor leaves the prompt as it was", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "Got both lines." }] });
    term.start([AWL], { cwd: fx.project, env: { ...fx.env, EDITOR: editor(0), VISUAL: "" }, width: 100, height: 30 });
    await term.waitFor(/\/help for commands/);
    term.type("first line");
    term.keys("C-g");
    await term.waitFor(/› first line\n\s*· appended by the editor\s*$/);
    expect(await Bun.file(join(fx.root, "mode")).text()).toBe("600\n");
    term.type(" and typed after");
    term.keys("Enter");
    await term.waitFor(/Got both lines\./);
    const sent = fx.server.requests[0]!.body.messages.at(-1).content;
    expect(sent[0].text).toBe("first line\nappended by the editor and typed after");
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    term.start([AWL], { cwd: fx.project, env: { ...fx.env, EDITOR: editor(1) }, width: 100, height: 30 });
    await term.waitFor(/\/help for commands/);
    term.type("keep me");
    term.keys("C-g");
    const screen = await term.waitFor(/exited with 1: the prompt is as it was/);
    expect(screen).toMatch(/› keep me\n/);
    expect(screen).not.toContain("appended by the editor");
    term.keys("C-c"); // clears the line
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});
