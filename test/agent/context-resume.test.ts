// Project context files through the agent: a new session's first request
// carries them in its system prompt, and a resumed session sends the prompt it
// started with, read from its log, even after AGENTS.md changed.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { SessionManager } from "../../src/session";
import type { RecordedRequest } from "../support/server";
import { agentFixture, logLines } from "./helpers";

let fx: Awaited<ReturnType<typeof agentFixture>>;
let savedXdg: string | undefined;
let xdg: string;
let env: Record<string, string>;
beforeEach(async () => {
  fx = await agentFixture();
  // The global file is found through the environment: point both the agent's and the process's at a fake config directory.
  savedXdg = process.env.XDG_CONFIG_HOME;
  xdg = join(fx.project, "..", "config");
  process.env.XDG_CONFIG_HOME = xdg;
  env = { ...fx.env, XDG_CONFIG_HOME: xdg };
});
afterEach(async () => {
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  await fx.cleanup();
});

const model = { provider: "anthropic", model: "claude-sonnet-4-5" };

/** The system prompt a recorded Anthropic request carried (a string, or blocks with cache markers). */
function systemOf(request: RecordedRequest): string {
  const system = request.body.system;
  return typeof system === "string" ? system : system.map((block: { text: string }) => block.text).join("");
}

async function turn(agent: Agent, prompt: string, answer: string) {
  fx.server.reply({ blocks: [{ type: "text", text: answer }] });
  const result = await agent.runTurn(prompt, new AbortController().signal, () => {});
  expect(result.stopReason).toBe("stop");
}

test("a new session's first request carries the files, root-first; a resumed one sends the prompt it started with after AGENTS.md changed", async () => {
  mkdirSync(join(fx.project, ".git"));
  await Bun.write(join(xdg, "awl", "AGENTS.md"), "Global: answer in English.\n");
  await Bun.write(join(fx.project, "AGENTS.md"), "Version 1: use bun, not npm.\n");
  await Bun.write(join(fx.project, "CLAUDE.md"), "Never read: AGENTS.md is here.\n");
  await Bun.write(join(fx.project, "pkg", "CLAUDE.md"), "Package: keep the API stable.\n");
  const cwd = join(fx.project, "pkg");

  const first = new Agent({ session: SessionManager.init({ cwd, ...model }), cwd, model, env });
  await turn(first, "hello", "hi");
  const path = first.session.sessionFile;
  first.session.close();

  const original = systemOf(fx.server.requests[0]!);
  const order = ["Global: answer in English.", "Version 1: use bun, not npm.", "Package: keep the API stable."].map((t) => original.indexOf(t));
  expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
  expect(original).toContain(`\n## ${join(fx.project, "AGENTS.md")}\n\nVersion 1`);
  expect(original).not.toContain("Never read");
  // The log persists it: the system message is the session's first entry.
  const lines = await logLines(path);
  expect(lines[1].message).toEqual({ role: "system", content: [{ type: "text", text: original }] });

  // The project's instructions change; the session is reopened from its file by a new agent.
  await Bun.write(join(fx.project, "AGENTS.md"), "Version 2: use npm after all.\n");
  const session = await SessionManager.open(path);
  const resumed = new Agent({ session, cwd, model: session.activeModel() as typeof model, env });
  await turn(resumed, "and now?", "still bun");
  session.close();

  expect(fx.server.requests).toHaveLength(2);
  expect(systemOf(fx.server.requests[1]!)).toBe(original);
  expect((await logLines(path)).filter((l) => l.message?.role === "system")).toHaveLength(1);

  // A new session, by contrast, reads the files as they are now.
  const fresh = new Agent({ session: SessionManager.init({ cwd, ...model }), cwd, model, env });
  await turn(fresh, "hello again", "hi");
  fresh.session.close();
  const now = systemOf(fx.server.requests[2]!);
  expect(now).toContain("Version 2: use npm after all.");
  expect(now).not.toContain("Version 1");
});

test("the cap's notice reaches the model in the first request", async () => {
  await Bun.write(join(fx.project, "AGENTS.md"), "A long rule, one of many.\n".repeat(2000)); // 52,000 bytes
  const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env });
  await turn(agent, "hello", "hi");
  agent.session.close();
  const system = systemOf(fx.server.requests[0]!);
  expect(system).toMatch(new RegExp(`- ${join(fx.project, "AGENTS.md")} \\(52000 bytes; cut to \\d+ bytes\\)`));
  expect(system).toContain("Project instructions are limited to 32 KiB");
  expect(system).toMatch(/\[awl: the rest of this file \(about \d+ bytes\) is cut: project instructions are limited to 32 KiB\]$/);
});
