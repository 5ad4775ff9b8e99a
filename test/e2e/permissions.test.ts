// Saved permissions through the compiled binary (docs/permissions.md): "always,
// and save" at the REPL's question, the next session not asking again,
// /permissions, Shift+Tab at the idle prompt; and a deny rule under -p's auto.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });
const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const settingsFile = () => join(fx.root, "config", "awl", "settings.json");
/** The fixture's environment in ask mode (the REPL's default), with the person's settings in the fixture. */
const env = () => ({ ...Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE")), XDG_CONFIG_HOME: join(fx.root, "config") });

describe.skipIf(!hasTmux)("always, and save", () => {
  test("s saves the rule; the next session runs the command unasked, /permissions says where it came from, Shift+Tab cycles the mode", async () => {
    mkdirSync(join(fx.root, "config", "awl"), { recursive: true });
    writeFileSync(settingsFile(), JSON.stringify({ permissions: { deny: ["Bash(curl:*)"] }, model: "kept" }));
    fx.server.reply({ blocks: [bash("touch made.txt")] }, text("Made."), { blocks: [bash("touch made.txt")] }, text("Made again."));
    term.start([AWL], { cwd: fx.project, env: env(), width: 160, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("make it");
    const asked = await term.waitFor(/Run it\?/);
    expect(asked).toContain("s always, and save (Bash(touch made.txt) in your settings)");
    term.type("s");
    expect(await term.waitFor(/Made\./)).toContain(`Saved to ${settingsFile()}: Bash(touch made.txt)`);
    expect(JSON.parse(readFileSync(settingsFile(), "utf8"))).toEqual({ permissions: { deny: ["Bash(curl:*)"], allow: ["Bash(touch made.txt)"] }, model: "kept" });
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
    term.close();

    Bun.spawnSync(["rm", join(fx.project, "made.txt")]);
    term.start([AWL], { cwd: fx.project, env: env(), width: 160, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("again");
    const again = await term.waitFor(/Made again\./);
    expect(again).not.toContain("Run it?");
    expect(existsSync(join(fx.project, "made.txt"))).toBe(true);
    term.send("/permissions");
    const listed = await term.waitFor(/Approval mode ask/);
    expect(listed).toMatch(new RegExp(`deny +Bash\\(curl:\\*\\) +${settingsFile()}\\n +allow +Bash\\(touch made\\.txt\\) +${settingsFile()}`));
    term.keys("BTab");
    await term.waitFor(/\nauto ›\s*$/);
    term.keys("BTab");
    await term.waitFor(/\nread-only ›\s*$/);
    term.keys("BTab");
    await term.waitFor(/\n›\s*$/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe.skipIf(!hasTmux)("the idle prompt's mode", () => {
  test("started with --approve, the prompt names no mode until it changes, then names the one in force", async () => {
    term.start([AWL, "--approve", "read-only"], { cwd: fx.project, env: env(), width: 100, height: 20 });
    await term.waitFor(/\/help for commands[\s\S]*\n›\s*$/);
    term.keys("BTab"); // read-only → ask
    await term.waitFor(/\nask ›\s*$/);
    term.keys("BTab", "BTab"); // → auto → read-only, the mode it started in
    await term.waitFor(/\n›\s*$/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe("-p", () => {
  test("a deny rule in the person's settings refuses even in auto; the model reads why", async () => {
    mkdirSync(join(fx.root, "config", "awl"), { recursive: true });
    writeFileSync(settingsFile(), JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }));
    fx.server.reply({ blocks: [bash("ls && touch made.txt")] }, text("Refused."));
    const run = await fx.run(["-p", "make it"], { env: { XDG_CONFIG_HOME: join(fx.root, "config") } });
    expect(run).toMatchObject({ code: 0, stdout: "Refused.\n" });
    expect(existsSync(join(fx.project, "made.txt"))).toBe(false);
    expect(JSON.stringify(fx.server.requests[1]!.body.messages)).toContain(`Not run: the user's permission rule Bash(touch:*) (in ${settingsFile()}) denies it.`);
  });
});
