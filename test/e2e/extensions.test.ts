// The person's extensions, run by the compiled binary as users run it
// (docs/extensions.md): a TypeScript module in $XDG_CONFIG_HOME/awl/extensions/
// is imported at start, its tools reach the model and keep state that is the
// fold of the session's path, its handler before a tool call refuses calls
// (and one that throws refuses them too), it never sees a provider key, a
// broken one is named once, and --no-extensions starts without any.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";
import { DOCS_COUNTER } from "../support/counter-extension";

const fx = useE2eFixture();
const term = useTerminal();

// Written as the docs teach: state kept as entries, read back as their fold; typed, so only a .ts import runs it.
const COUNTER = `
type Api = { [name: string]: (...args: any[]) => any };
export default (awl: Api) => {
  const count = awl.state("counter", (): number => 0, (n: number, data: { add: number }) => n + data.add);
  awl.registerTool({
    name: "bump",
    description: "Adds to the counter and says what it is now.",
    inputSchema: { type: "object", properties: { add: { type: "number" } }, required: ["add"] },
    effect: () => ({ kind: "read" }),
    execute: (input: { add: number }) => {
      awl.appendEntry("counter", { add: input.add });
      return \`count is \${count.get()}\`;
    },
  });
  awl.registerTool({
    name: "peek_keys",
    description: "Says which provider keys it can read.",
    inputSchema: { type: "object" },
    effect: () => ({ kind: "read" }),
    execute: () => {
      awl.sendMessage("counter", "The counter extension was here.");
      return "keys seen: " + JSON.stringify([process.env.ANTHROPIC_API_KEY ?? "none", process.env.OPENAI_API_KEY ?? "none"]);
    },
  });
  awl.registerTool({
    name: "touch_marker",
    description: "Writes a marker file (declares no effect).",
    inputSchema: { type: "object" },
    execute: async () => {
      await Bun.write("marker.txt", "touched");
      return "touched";
    },
  });
  awl.registerTool({
    name: "explode",
    description: "Always fails.",
    inputSchema: { type: "object" },
    effect: () => ({ kind: "read" }),
    execute: () => {
      throw new Error("the fuse was lit");
    },
  });
  awl.registerTool({ name: "bash", description: "a clash", inputSchema: { type: "object" }, execute: () => "never" });
  awl.registerCommand({ name: "remember", description: "Tells the model something.", run: (args: string) => awl.sendMessage("remember", \`Remember: \${args}\`) });
  awl.registerCommand({ name: "new", description: "a clash", run: () => {} });
};
`;

const GUARD = `
export default (awl) => {
  awl.on("before_tool_call", (call) => {
    if (call.name !== "bash") return;
    if (call.input.command.includes("forbidden")) return { refuse: "guard: forbidden commands are not run" };
    if (call.input.command.includes("boom")) throw new Error("the guard broke");
    if (call.input.command.includes("hang")) return new Promise(() => {}); // never answers
  });
};
`;

const install = (files: Record<string, string>) => fx.installExtensions(files);

/** Everything the model was sent in request `i`, as JSON text. */
const sent = (i: number) => JSON.stringify(fx.server.requests[i]!.body.messages);

test("an extension's tool keeps its count in the session, and the count is the fold of the path", async () => {
  const env = install({ "counter.ts": COUNTER });
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bump", input: { add: 2 } }] },
    { blocks: [{ type: "toolUse", name: "bump", input: { add: 3 } }, { type: "toolUse", name: "bump", input: { add: 4 } }] },
    { blocks: [{ type: "text", text: "Counted." }] },
  );
  const run = await fx.run(["-p", "count"], { env });
  expect(run.stderr).toContain("tool bash is not added: the name is a built-in tool's");
  expect(run.code).toBe(0);
  expect(fx.server.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("bump");
  expect(sent(1)).toContain("count is 2");
  // Two calls of one answer: the second sees the first's entry, held until the results are written.
  expect(sent(2)).toContain("count is 5");
  expect(sent(2)).toContain("count is 9");
  const [file] = sessionFiles(fx.sessions);
  const customs = readLog(file!).filter((l) => l.type === "custom");
  expect(customs.map((l) => l.data)).toEqual([{ add: 2 }, { add: 3 }, { add: 4 }]);

  // Resumed, the fold of the path goes on from 9.
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bump", input: { add: 1 } }] }, { blocks: [{ type: "text", text: "Again." }] });
  expect((await fx.run(["-p", "again", "--resume", readLog(file!)[0]!.id as string], { env })).code).toBe(0);
  expect(sent(4)).toContain("count is 10");
});

test("kill -9 as the next request goes out: resumed, the count is the fold of what the file holds", async () => {
  const env = install({ "counter.ts": COUNTER });
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bump", input: { add: 2 } }, { type: "toolUse", name: "bump", input: { add: 3 } }] },
    { blocks: [{ type: "text", text: "never seen" }], delayMs: 2000 },
  );
  const child = Bun.spawn([AWL, "-p", "count"], { cwd: fx.project, env: { ...fx.env, ...env }, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  let seen = 0;
  fx.server.onRequest = () => {
    if (++seen === 2) child.kill("SIGKILL");
  };
  await child.exited;
  fx.server.onRequest = undefined;
  const [file] = sessionFiles(fx.sessions);
  const held = readLog(file!).filter((l) => l.type === "custom").reduce((n, l) => n + l.data.add, 0);
  expect(held).toBe(5); // written with the results, before the request the kill interrupted
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bump", input: { add: 1 } }] }, { blocks: [{ type: "text", text: "Resumed." }] });
  expect((await fx.run(["-p", "again", "--resume", readLog(file!)[0]!.id as string], { env })).code).toBe(0);
  expect(sent(fx.server.requests.length - 1)).toContain("count is 6");
});

test("an extension never reads a provider key from process.env, and its message is sent with the next request", async () => {
  const env = install({ "counter.ts": COUNTER });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "peek_keys", input: {} }] }, { blocks: [{ type: "text", text: "Done." }] });
  const run = await fx.run(["-p", "peek"], { env });
  expect(run.code).toBe(0);
  expect(sent(1)).toContain(String.raw`keys seen: [\"none\",\"none\"]`);
  expect(sent(1)).toContain("[Added by the counter extension, not typed by the user.]");
  expect(sent(1)).toContain("The counter extension was here.");
});

test("a handler refuses a call; one that throws refuses it too and is named once; --no-extensions runs neither", async () => {
  const env = install({ "guard.js": GUARD });
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo forbidden > refused.txt" } }] },
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo boom > broken.txt" } }] },
    { blocks: [{ type: "toolUse", name: "bash", input: { command: "echo boom > again.txt" } }] },
    { blocks: [{ type: "text", text: "Stopped." }] },
  );
  const run = await fx.run(["-p", "try"], { env });
  expect(run.code).toBe(0);
  expect(existsSync(join(fx.project, "refused.txt"))).toBe(false);
  expect(existsSync(join(fx.project, "broken.txt"))).toBe(false);
  expect(existsSync(join(fx.project, "again.txt"))).toBe(false);
  expect(sent(1)).toContain("guard: forbidden commands are not run");
  expect(sent(2)).toContain("the guard broke");
  expect(run.stderr.split("its handler before a tool call failed: the guard broke").length - 1).toBe(1);

  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo forbidden > allowed.txt" } }] }, { blocks: [{ type: "text", text: "Ran." }] });
  expect((await fx.run(["-p", "try", "--no-extensions"], { env })).code).toBe(0);
  expect(existsSync(join(fx.project, "allowed.txt"))).toBe(true);
});

test("a handler that never answers refuses the call once its time is up; a module that never finishes loading is named and skipped", async () => {
  const env = { ...install({ "guard.js": GUARD, "stuck.ts": "export default () => new Promise(() => {});" }), AWL_HANDLER_TIMEOUT: "300", AWL_EXTENSION_TIMEOUT: "300" };
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "echo hang > hung.txt" } }] }, { blocks: [{ type: "text", text: "Gave up." }] });
  const run = await fx.run(["-p", "wait"], { env });
  expect(run.code).toBe(0);
  expect(existsSync(join(fx.project, "hung.txt"))).toBe(false);
  expect(sent(1)).toContain("did not finish in 0.3 s, so the call was not run");
  expect(run.stderr).toContain("stuck.ts is not loaded: it did not finish loading in 0.3 s");
});

test("what an extension leaves running (a timer) does not keep awl -p from exiting once its answer is out", async () => {
  const env = install({ "timer.ts": "export default () => { setInterval(() => {}, 1000); };" });
  fx.server.reply({ blocks: [{ type: "text", text: "Answered." }] });
  const run = await fx.run(["-p", "hi"], { env });
  expect(run).toMatchObject({ code: 0, stdout: "Answered.\n" });
});

test("a tool that throws is the call's error for the model, and named once to the person however often it is called", async () => {
  const env = install({ "counter.ts": COUNTER });
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "explode", input: {} }, { type: "toolUse", name: "explode", input: {} }] },
    { blocks: [{ type: "text", text: "It failed." }] },
  );
  const run = await fx.run(["-p", "explode"], { env });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("It failed.\n");
  expect(sent(1).split("explode failed: the fuse was lit").length - 1).toBe(2);
  expect(run.stderr.split("tool explode failed: the fuse was lit").length - 1).toBe(1);
});

test("a tool that declares no effect is refused in read-only; a module that fails to load is named and the session goes on", async () => {
  const env = install({ "counter.ts": COUNTER, "broken.ts": "export default () => { throw new Error('cannot start'); };", "half.ts": "export const x = 1;" });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "touch_marker", input: {} }] }, { blocks: [{ type: "text", text: "Refused." }] });
  const run = await fx.run(["-p", "touch", "--approve", "read-only"], { env });
  expect(run.code).toBe(0);
  expect(existsSync(join(fx.project, "marker.txt"))).toBe(false);
  expect(run.stderr).toContain("broken.ts is not loaded: cannot start");
  expect(run.stderr).toContain("half.ts is not loaded: it has no default export that is a function");
  // In auto it runs, between two listings of the working tree, as a command does.
  fx.server.reply({ blocks: [{ type: "toolUse", name: "touch_marker", input: {} }] }, { blocks: [{ type: "text", text: "Touched." }] });
  expect((await fx.run(["-p", "touch"], { env })).code).toBe(0);
  expect(existsSync(join(fx.project, "marker.txt"))).toBe(true);
  const [, second] = sessionFiles(fx.sessions).map((f) => readLog(f));
  expect((second ?? []).some((l) => l.type === "bash_effects")).toBe(true);
});

test("awl extensions says what each module registered or why it is not loaded, the hooks in force, and what waits for trust", async () => {
  const env = install({ "counter.ts": COUNTER, "broken.ts": "export default () => { throw new Error('cannot start'); };" });
  const config = env.XDG_CONFIG_HOME!;
  writeFileSync(join(config, "awl", "settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }));
  mkdirSync(join(fx.project, ".awl"));
  writeFileSync(join(fx.project, ".awl", "settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "touch never" }] }] } }));
  const run = await fx.run(["extensions"], { env });
  expect(run.code).toBe(0);
  const dir = join(config, "awl", "extensions");
  expect(run.stdout).toBe(
    [
      "Extensions:",
      `  yours (${dir}):`,
      "    broken.ts: not loaded: cannot start",
      "    counter.ts: tools bump, peek_keys, touch_marker, explode; commands /remember, /new",
      `  this project's (${join(fx.project, ".awl", "extensions")}): none`,
      "Hooks:",
      `  PreToolUse (Bash): true  (yours, ${join(config, "awl", "settings.json")})`,
      "  this project's 1 hook: not run, until you trust this project",
      "Failed:",
      `  extension ${join(dir, "broken.ts")} is not loaded: cannot start`,
      `  ${join(dir, "counter.ts")}: tool bash is not added: the name is a built-in tool's`,
      "This project is not trusted: its code does not run (run awl here to be asked, or add --trust for one run).",
      "",
    ].join("\n"),
  );
  expect(existsSync(join(fx.project, "never"))).toBe(false);
});

test("awl extensions types writes awl.d.ts, which an extension's editor checks it against; never over a file", async () => {
  const result = await fx.run(["extensions", "types"]);
  expect(result.code).toBe(0);
  writeFileSync(join(fx.project, "counter.ts"), DOCS_COUNTER);
  writeFileSync(join(fx.project, "wrong.ts"), `import type { Awl } from "./awl";\nexport default (awl: Awl) => awl.registerTool({ name: "x", description: "d", inputSchema: {}, effect: () => ({ kind: "write" }), execute: () => 1 });\n`);
  const tsc = join(import.meta.dir, "../../node_modules/.bin/tsc");
  const check = (file: string) => Bun.spawnSync([tsc, "--noEmit", "--strict", file], { cwd: fx.project });
  expect(check("counter.ts").exitCode).toBe(0);
  const wrong = check("wrong.ts");
  expect(wrong.stdout.toString()).toContain("wrong.ts");
  expect(wrong.exitCode).not.toBe(0);
  const again = await fx.run(["extensions", "types"]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("awl.d.ts exists: awl does not overwrite it");
});

test.skipIf(!hasTmux)("in the REPL, /rewind takes the count back with the conversation, and the transcript of a resume shows each entry as a dim line", async () => {
  const env = { ...fx.env, ...install({ "counter.ts": COUNTER }) };
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "bump", input: { add: 2 } }] },
    { blocks: [{ type: "text", text: "done one" }] },
    { blocks: [{ type: "toolUse", name: "bump", input: { add: 3 } }] },
    { blocks: [{ type: "text", text: "done two" }] },
    { blocks: [{ type: "toolUse", name: "bump", input: { add: 10 } }] },
    { blocks: [{ type: "text", text: "done three" }] },
  );
  term.start([AWL], { cwd: fx.project, env, width: 120, height: 40 });
  await term.waitFor(/\/help for commands/);
  term.send("turn one");
  await term.waitFor(/done one/);
  term.send("turn two");
  await term.waitFor(/done two/);
  expect(sent(3)).toContain("count is 5");

  term.send("/rewind");
  await term.waitFor(/Go back to before which prompt[\s\S]*turn one/);
  term.keys("Enter"); // turn two, the newest
  // No file changed: whether the files go back too may not be asked.
  await term.waitFor(/What goes back\?|Go back to before that prompt\?/);
  if (!term.screen().includes("Go back to before that prompt?")) {
    term.keys("Enter");
    await term.waitFor(/Go back to before that prompt\?/);
  }
  term.keys("Enter");
  await term.waitFor(/Went back to before that prompt/);
  term.keys("C-u");
  term.send("turn three");
  await term.waitFor(/done three/);
  // The path holds turn one's entry alone: 2, then 10.
  expect(sent(5)).toContain("count is 12");
  term.send("/quit");
  await term.waitFor(/Resume this session with/);

  const [file] = sessionFiles(fx.sessions);
  term.close();
  term.start([AWL, "--resume", readLog(file!)[0]!.id as string, "--no-extensions"], { cwd: fx.project, env, width: 120, height: 40 });
  const screen = await term.waitFor(/done three[\s\S]*\/help for commands/);
  expect(screen).toContain("· counter entry");
});

test.skipIf(!hasTmux)("an extension's slash command runs in the REPL, and what it sends reaches the model with the next prompt; one named as a built-in is left out", async () => {
  const env = { ...fx.env, ...install({ "counter.ts": COUNTER }) };
  fx.server.reply({ blocks: [{ type: "text", text: "noted" }] });
  term.start([AWL], { cwd: fx.project, env, width: 120, height: 40 });
  await term.waitFor(/\/help for commands[\s\S]*command \/new is not added: the name is a built-in command's/);
  term.send("/remember the port is 4100");
  term.send("hello");
  await term.waitFor(/noted/);
  expect(sent(0)).toContain("Remember: the port is 4100");
  expect(sent(0)).toContain("[Added by the remember extension, not typed by the user.]");
});

test.skipIf(!hasTmux)("what an extension's command writes is written and shown at once, not at the next prompt: quitting next keeps it", async () => {
  const STAMP = `
export default (awl) => {
  awl.registerCommand({ name: "stamp", description: "Notes a stamp.", run: (args) => awl.appendEntry("stamp", { note: args }) });
  awl.registerRenderer("stamp", (entry) => ["stamped: " + entry.data.note]);
};
`;
  const env = { ...fx.env, ...install({ "stamp.js": STAMP }) };
  fx.server.reply({ blocks: [{ type: "text", text: "hello back" }] });
  term.start([AWL], { cwd: fx.project, env, width: 100, height: 30 });
  await term.waitFor(/\/help for commands/);
  term.send("hello");
  await term.waitFor(/hello back/);
  const [file] = sessionFiles(fx.sessions);
  term.send("/stamp before quit");
  await term.waitFor(/stamped: before quit/);
  expect(readLog(file!).filter((l) => l.type === "custom").map((l) => l.data)).toEqual([{ note: "before quit" }]);
  term.keys("C-d");
  await term.waitFor(/Resume this session with/);
  term.close();
  term.start([AWL, "--resume"], { cwd: fx.project, env, width: 100, height: 30 });
  await term.waitFor(/hello back[\s\S]*stamped: before quit[\s\S]*\/help for commands/);
});
