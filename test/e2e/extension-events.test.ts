// The session's events and an extension's renderer, run by the compiled
// binary as users run it (docs/extensions.md): with -p, a handler changes the
// prompt, a tool call's input (recorded before the call runs, then run as
// changed) and a result, and one that throws at a turn's end is named once
// while the run succeeds; in the REPL, an entry the extension renders is
// shown as its renderer says, live and in a resumed transcript,
// /extensions lists the renderer, and /fork is a move its handler hears of.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, sessionFiles, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";
import { readLog } from "../support/session-log";

const fx = useE2eFixture();
const term = useTerminal();

const EDITOR = `
import type { Awl } from "./awl";
export default (awl: Awl) => {
  awl.on("before_prompt", ({ text }) => ({ text: text + " (in English)" }));
  awl.on("before_tool_call", (call) => {
    const input = call.input as { command?: string };
    if (call.name === "bash" && input.command?.startsWith("rm ")) return { input: { command: "echo kept > kept.txt" } };
  });
  awl.on("after_tool_call", (result) => ({ content: result.content + " (checked)" }));
  awl.on("turn_end", () => {
    throw new Error("the tally broke");
  });
};
`;

// A scoreboard: each tool call's score is a custom entry, shown as a framed line of its own.
const SCORE = `
export default (awl) => {
  const total = awl.state("score", () => 0, (n, data) => n + data.points);
  awl.registerRenderer("score", (entry) => ["+-- score --+", "| +" + entry.data.points + " (\\x1b[2J) |"]);
  awl.on("after_move", async (move) => {
    await Bun.write("moved.txt", move.kind + " total " + total.get());
  });
  awl.registerTool({
    name: "score",
    description: "Adds points.",
    inputSchema: { type: "object", properties: { points: { type: "number" } }, required: ["points"] },
    effect: () => ({ kind: "read" }),
    execute: (input) => {
      awl.appendEntry("score", { points: input.points });
      return "total " + total.get();
    },
  });
};
`;

const install = (files: Record<string, string>) => fx.installExtensions(files);

test("with -p, a handler changes the prompt, a call's input (recorded, then run as changed) and its result; one that throws at the turn's end is named once", async () => {
  const env = install({ "editor.ts": EDITOR });
  writeFileSync(join(fx.project, "precious.txt"), "keep me");
  fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: { command: "rm precious.txt" } }] }, { blocks: [{ type: "text", text: "Done." }] });
  const run = await fx.run(["-p", "tidy up"], { env });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("Done.\n");
  expect(existsSync(join(fx.project, "precious.txt"))).toBe(true);
  expect(existsSync(join(fx.project, "kept.txt"))).toBe(true);
  expect(run.stderr.split("its handler at a turn's end failed: the tally broke").length - 1).toBe(1);

  const origin = join(env.XDG_CONFIG_HOME!, "awl", "extensions", "editor.ts");
  expect(JSON.stringify(fx.server.requests[0]!.body.messages)).toContain("tidy up (in English)");
  const lines = readLog(sessionFiles(fx.sessions)[0]!);
  const record = lines.findIndex((l) => l.type === "custom" && l.customType === "extension");
  expect(lines[record]).toMatchObject({ data: { event: "before_tool_call", extensions: [origin], updatedInput: { command: "echo kept > kept.txt" } } });
  const result = lines.slice(record).find((l) => l.type === "message" && l.message.role === "user")!.message.content[0];
  expect(result.content).toBe(`The ${origin} extension changed this call's input to {"command":"echo kept > kept.txt"}.\n(no output)\nexit code: 0 (checked)`);
  expect(fx.server.requests[1]!.body.messages.at(-1).content[0].content).toBe(result.content);
});

test.skipIf(!hasTmux)("in the REPL, an entry an extension renders is shown as its renderer says, live and on resume; /extensions lists the renderer; /fork is a move", async () => {
  const env = { ...fx.env, ...install({ "score.js": SCORE }) };
  fx.server.reply({ blocks: [{ type: "toolUse", name: "score", input: { points: 7 } }] }, { blocks: [{ type: "text", text: "Scored." }] });
  term.start([AWL], { cwd: fx.project, env, width: 100, height: 40 });
  await term.waitFor(/\/help for commands/);
  term.send("score seven");
  const live = await term.waitFor(/\| \+7 \(␛\[2J\) \|[\s\S]*Scored\./);
  expect(live).toContain("+-- score --+");
  term.send("/extensions");
  await term.waitFor(/score\.js: tools score; renderers of score entries; handlers after_move/);
  // A fork is a move: its handler reads the forked session's state.
  term.send("/fork");
  await term.waitFor(/Left session/);
  term.send("/session"); // answered once the forked session's REPL runs: after the handler was told
  await term.waitFor(/Left session[\s\S]*Approve/);
  expect(readFileSync(join(fx.project, "moved.txt"), "utf8")).toBe("fork total 7");
  term.send("/quit");
  await term.waitFor(/Resume this session with/);

  const id = readLog(sessionFiles(fx.sessions)[0]!)[0]!.id as string;
  term.close();
  term.start([AWL, "--resume", id], { cwd: fx.project, env, width: 100, height: 40 });
  const resumed = await term.waitFor(/Scored\.[\s\S]*\/help for commands/);
  expect(resumed).toMatch(/score seven[\s\S]*\+-- score --\+\n\| \+7 \(␛\[2J\) \|[\s\S]*Scored\./);
  expect(resumed).not.toContain("· score entry");
});
