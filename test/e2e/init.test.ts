// /init through the compiled binary: the request asks for AGENTS.md with what
// awl saw of the repository (its test script among it), and the model's
// write is put to the person like any other; an existing AGENTS.md is to be
// improved by edits, not replaced.
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { initPrompt } from "../../src/ui/init-command";

const fx = useE2eFixture();
const term = useTerminal();
const AGENTS = "# Agents\n\nRun the tests with `bun test`.\n";

describe.skipIf(!hasTmux)("/init", () => {
  test("in a small repository: the request carries its test script; the proposed AGENTS.md is a write the person approves", async () => {
    writeFileSync(join(fx.project, "package.json"), JSON.stringify({ name: "tiny", scripts: { test: "bun test", build: "bun build.ts" } }));
    fx.server.reply({ blocks: [{ type: "toolUse", name: "write", input: { path: "AGENTS.md", content: AGENTS } }] }, { blocks: [{ type: "text", text: "Wrote AGENTS.md." }] });
    const env = Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE"));
    term.start([AWL], { cwd: fx.project, env, width: 120, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("/init");
    const asked = await term.waitFor(/Write it\?/);
    expect(asked).toContain("+Run the tests with `bun test`.");
    const prompt = fx.server.requests[0]!.body.messages.at(-1).content[0].text as string;
    expect(prompt).toContain("Write AGENTS.md at the top of this repository");
    expect(prompt).toContain("package.json scripts (npm run <name>):\n  test: bun test\n  build: bun build.ts");
    expect(prompt).toContain("create it with the write tool");
    expect(existsSync(join(fx.project, "AGENTS.md"))).toBe(false);
    term.type("y");
    await term.waitFor(/Wrote AGENTS\.md\./);
    expect(await Bun.file(join(fx.project, "AGENTS.md")).text()).toBe(AGENTS);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

test("an AGENTS.md that exists is to be improved with edits, never replaced", () => {
  writeFileSync(join(fx.project, "AGENTS.md"), AGENTS);
  const prompt = initPrompt(fx.project);
  expect(prompt).toContain("AGENTS.md exists already: read it first and improve it with the edit tool, keeping what it says that is still true; do not replace it with the write tool.");
  expect(prompt).not.toContain("create it with the write tool");
});
