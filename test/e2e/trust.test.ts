// A cloned repository's own code waits for the person's trust
// (docs/extensions.md, "Trust"): its hooks and its .awl/extensions/ run
// nothing until the person says yes to the REPL's question (which lists them),
// `-p` runs only what was trusted before (or everything with --trust) and says
// what it skipped, an edit asks again, and a project's hook cannot allow what
// the person's settings do not. --no-extensions runs no hook at all.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const text = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });
const bash = (command: string) => ({ blocks: [{ type: "toolUse" as const, name: "bash", input: { command } }] });

/** The project's .awl/settings.json: a UserPromptSubmit hook that appends a line to a marker file. */
function markerHook(line: string): string {
  const marker = join(fx.root, "marker");
  mkdirSync(join(fx.project, ".awl"), { recursive: true });
  writeFileSync(join(fx.project, ".awl", "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo "${line} $PWD" >> ${marker}` }] }] } }));
  return marker;
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : []);
const toolNames = (i: number) => (fx.server.requests[i]!.body.tools ?? []).map((t: { name: string }) => t.name);

test("-p runs nothing of an untrusted project's and says so in one line; --trust runs its hooks and extensions that once", async () => {
  const marker = markerHook("ran");
  mkdirSync(join(fx.project, ".awl", "extensions"));
  writeFileSync(join(fx.project, ".awl", "extensions", "tool.ts"), `export default (awl: any) => awl.registerTool({ name: "project_tool", description: "the project's", inputSchema: { type: "object" }, effect: () => ({ kind: "read" }), execute: () => "ok" });\n`);
  fx.server.reply(text("One."), text("Two."), text("Three."));

  const skipped = await fx.run(["-p", "hello"]);
  expect(skipped.code).toBe(0);
  expect(existsSync(marker)).toBe(false);
  expect(toolNames(0)).not.toContain("project_tool");
  expect(skipped.stderr).toBe("awl: this project is not trusted: its 1 hook, 1 extension did not run; run awl here to be asked, or add --trust to run them this once\n");

  const trusted = await fx.run(["--trust", "-p", "hello"]);
  expect(trusted.code).toBe(0);
  expect(trusted.stderr).toBe("");
  expect(lines(marker)).toEqual([`ran ${fx.project}`]);
  expect(toolNames(1)).toContain("project_tool");

  // --trust is for that run: it is not kept.
  expect((await fx.run(["-p", "hello"])).stderr).toContain("this project is not trusted");
  expect(lines(marker)).toHaveLength(1);
});

test("--no-extensions runs none of the person's hooks either", async () => {
  const marker = join(fx.root, "person-marker");
  const config = join(fx.root, "config");
  mkdirSync(join(config, "awl"), { recursive: true });
  writeFileSync(join(config, "awl", "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] } }));
  fx.server.reply(text("One."), text("Two."));
  expect((await fx.run(["--no-extensions", "-p", "hello"], { env: { XDG_CONFIG_HOME: config } })).code).toBe(0);
  expect(existsSync(marker)).toBe(false);
  expect((await fx.run(["-p", "hello"], { env: { XDG_CONFIG_HOME: config } })).code).toBe(0);
  expect(existsSync(marker)).toBe(true);
});

describe.skipIf(!hasTmux)("the REPL's question", () => {
  test("nothing runs until yes; the yes is kept, so -p runs it after; an edit to the hook asks again", async () => {
    const marker = markerHook("first");
    fx.server.reply(text("Not run."), text("Run."), text("Printed."));

    term.start([AWL], { cwd: fx.project, env: fx.env, width: 200 });
    const question = await term.waitFor(/Trust this project/);
    expect(question).toContain(`hook UserPromptSubmit in .awl/settings.json: echo "first $PWD" >> ${marker}`);
    expect(question).toContain("variables they expand: PWD");
    term.keys("n");
    await term.waitFor(/awl asks again next time[\s\S]*\/help for commands/);
    term.send("hello");
    await term.waitFor(/Not run\./);
    expect(existsSync(marker)).toBe(false);
    term.close();

    term.start([AWL], { cwd: fx.project, env: fx.env, width: 200 });
    await term.waitFor(/Trust this project/);
    term.keys("y");
    await term.waitFor(/\/help for commands/);
    term.send("hello");
    await term.waitFor(/Run\./);
    expect(lines(marker)).toEqual([`first ${fx.project}`]);
    term.close();

    const record = join(fx.home, ".config", "awl", "trusted-projects.json");
    expect(statSync(record).mode & 0o777).toBe(0o600);
    const printed = await fx.run(["-p", "hello"]);
    expect(printed.stderr).toBe("");
    expect(lines(marker)).toHaveLength(2);

    markerHook("edited");
    const after = await fx.run(["-p", "hello"]);
    expect(after.stderr).toContain("awl: this project has changed since you trusted it: its 1 hook did not run");
    expect(lines(marker)).toHaveLength(2);
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 200 });
    expect(await term.waitFor(/Trust this project/)).toContain("changed since you trusted it");
  });

  test("a trusted project's hook cannot allow a call the person's settings would ask about", async () => {
    mkdirSync(join(fx.project, ".awl"));
    const allow = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } };
    writeFileSync(join(fx.project, ".awl", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo '${JSON.stringify(allow)}'` }] }] } }));
    fx.server.reply(bash("touch asked"), text("Asked first."));
    const asking = Object.fromEntries(Object.entries(fx.env).filter(([k]) => k !== "AWL_APPROVE"));
    term.start([AWL, "--trust"], { cwd: fx.project, env: asking, width: 160 });
    expect(await term.waitFor(/\/help for commands/)).toContain("approve: ask");
    term.send("touch a file");
    await term.waitFor(/Run it\?/);
    expect(existsSync(join(fx.project, "asked"))).toBe(false);
    term.keys("y");
    await term.waitFor(/Asked first\./);
    expect(existsSync(join(fx.project, "asked"))).toBe(true);
    term.send("/extensions");
    const report = await term.waitFor(/trusted for this run only \(--trust\)/);
    expect(report.replace(/\s+/g, " ")).toContain(`PreToolUse (Bash): echo '${JSON.stringify(allow)}' (this project's, ${join(fx.project, ".awl", "settings.json")})`);
  });
});
