// The REPL's slash commands (src/ui/commands.ts): which lines are commands,
// and what /model, /new, /resume and /session do, on a real Agent over a real
// session in a temporary session root. Nothing here reaches a network: /model
// only builds a provider.
import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/agent/agent";
import { messageToDisk, SessionManager, type ModelRef } from "../../src/session";
import { textMessage } from "../../src/conversation";
import { colorsFor } from "../../src/ui/colors";
import { commandNames, parseCommand, runCommand, type Command } from "../../src/ui/commands";
import { useSessionRoot } from "../session/helpers";

useSessionRoot();
const c = colorsFor({ isTTY: false });
const KEYS = { ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test" };
const CWD = "/proj";

function agent(model: ModelRef = { provider: "openai", model: "gpt-4o" }, env: Record<string, string | undefined> = KEYS, session = SessionManager.init({ cwd: CWD, ...model })): Agent {
  return new Agent({ session, cwd: CWD, model, env });
}

const run = (line: string, a: Agent) => runCommand(parseCommand(line)!, a, c);
const output = (line: string, a: Agent) => {
  const result = run(line, a);
  if (typeof result !== "object" || !("output" in result)) throw new Error(`no output: ${JSON.stringify(result)}`);
  return result.output;
};

describe("which lines are commands", () => {
  /** Only /tmp and /new exist here: what a path "exists" means is the caller's file system. */
  const exists = (path: string) => path === "/tmp" || path === "/new";
  test.each<[string, Command | undefined]>([
    ["/help", { name: "help", argument: "" }],
    ["/HELP", { name: "help", argument: "" }],
    ["/model openai/gpt-5", { name: "model", argument: "openai/gpt-5" }],
    ["/model   anthropic/   ", { name: "model", argument: "anthropic/" }],
    ["/compact keep the failing test in mind\nand the fix", { name: "compact", argument: "keep the failing test in mind\nand the fix" }],
    ["/resume 019dc5ba-5", { name: "resume", argument: "019dc5ba-5" }],
    ["/exit", { name: "exit", argument: "" }],
    // A first word with another slash is a path: the line is a prompt.
    ["/usr/bin/ls is slow?", undefined],
    ["/etc/hosts: what does it map?", undefined],
    ["/model/gpt-5", undefined],
    // A first word that names something that exists is a path too.
    ["/tmp is full?", undefined],
    // ...unless it is a command's name.
    ["/new", { name: "new", argument: "" }],
    // Anything else that looks like a command is one, unknown: refused, never sent as a prompt.
    ["/modle gpt-5", { name: "modle", argument: "gpt-5" }],
    ["/help?", { name: "help?", argument: "" }],
    // A leading space, a bare slash, a slash and a space, or no slash at all: a prompt.
    [" /help", undefined],
    ["/", undefined],
    ["/ what is this", undefined],
    ["explain /model", undefined],
  ])("%p", (line, expected) => {
    expect(parseCommand(line, exists)).toEqual(expected);
  });

  test("by default a path is looked up on this machine's file system", () => {
    expect(parseCommand("/usr is slow?")).toBeUndefined(); // /usr exists everywhere awl runs
    expect(parseCommand("/no-such-folder-awl-test is it there?")).toEqual({ name: "no-such-folder-awl-test", argument: "is it there?" });
  });

  test("an unknown command is refused with the list and the way to send it as a prompt", () => {
    expect(output("/modle gpt-5", agent())).toBe(
      "Unknown command /modle: type /help for the list (to send a line that starts with / as a prompt, begin it with a space).",
    );
  });
});

describe("/model", () => {
  test.each([
    ["anthropic/", '"anthropic/" names no model: write anthropic/<model>, e.g. anthropic/claude-sonnet-4-5'],
    ["openai/", '"openai/" names no model: write openai/<model>, e.g. openai/gpt-5-mini'],
    ["google/", '"google/" names no model, and google is not a provider: give provider/model (providers: anthropic, openai'],
    ["openai gpt-5", '"openai gpt-5" is not a model id (ids have no spaces)'],
  ])("%p is refused with what is accepted; the model in use stays", (spec, refusal) => {
    const a = agent();
    const out = output(`/model ${spec}`, a);
    expect(out).toStartWith(refusal);
    expect(out).toEndWith("\nStill using openai/gpt-4o.");
    expect(a.model).toEqual({ provider: "openai", model: "gpt-4o" });
  });

  test.each([
    ["openai/gpt-5", { provider: "openai", model: "gpt-5" }, "Using openai/gpt-5 from the next prompt on."],
    ["anthropic/claude-opus-4-5", { provider: "anthropic", model: "claude-opus-4-5" }, "Using anthropic/claude-opus-4-5 from the next prompt on."],
    ["claude-haiku-4-5", { provider: "anthropic", model: "claude-haiku-4-5" }, "Using anthropic/claude-haiku-4-5 from the next prompt on."],
    [
      "google/gemini-2.5-pro",
      { provider: "openai", model: "google/gemini-2.5-pro" },
      "Using openai/google/gemini-2.5-pro from the next prompt on: google is not a provider awl knows, so the id goes to openai, the current provider, as it is.",
    ],
    [
      "meta-llama/Llama-3",
      { provider: "openai", model: "meta-llama/Llama-3" },
      "Using openai/meta-llama/Llama-3 from the next prompt on: meta-llama is not a provider awl knows, so the id goes to openai, the current provider, as it is.",
    ],
    ["llama3.2", { provider: "openai", model: "llama3.2" }, "Using openai/llama3.2 from the next prompt on (a model of openai, the current provider)."],
  ])("%p switches, and says to which provider", (spec, model, reply) => {
    const a = agent();
    expect(output(`/model ${spec}`, a)).toBe(reply);
    expect(a.model).toEqual(model);
  });

  test("a provider without its key is refused in the REPL's words (slash commands, no flags); the model in use stays", () => {
    const a = agent({ provider: "openai", model: "gpt-4o" }, { OPENAI_API_KEY: "sk-test" });
    const out = output("/model anthropic/claude-opus-4-5", a);
    expect(out).toBe(
      "ANTHROPIC_API_KEY is not set: awl reads it when it starts (/quit, export it, start awl again); or choose another provider: /model openai/gpt-5-mini\nStill using openai/gpt-4o.",
    );
    expect(out).not.toMatch(/--\w/);
    expect(a.model).toEqual({ provider: "openai", model: "gpt-4o" });
  });
});

describe("/new and /resume", () => {
  test("/new asks the REPL's caller for a new session; an argument is refused rather than lost", () => {
    expect(run("/new", agent())).toEqual({ open: "new" });
    expect(output("/new fix the tests", agent())).toBe("/new takes nothing after it: type /new, then your first prompt.");
  });

  test("/resume asks for the picker, /resume <id> for that session", () => {
    expect(run("/resume", agent())).toEqual({ open: "resume" });
    expect(run("/resume 019dc5ba-5", agent())).toEqual({ open: "resume", id: "019dc5ba-5" });
  });

  test("/help lists them, and Tab completes them", () => {
    const help = output("/help", agent());
    expect(help).toMatch(/^ {2}\/new\s+start a new session/m);
    expect(help).toMatch(/^ {2}\/resume \[id\]\s+pick a session/m);
    expect(help).toContain("A line that starts with a path (/usr/bin/ls is slow?) is a prompt");
    expect(commandNames()).toEqual(["model", "session", "new", "resume", "compact", "rewind", "tree", "label", "fork", "approve", "help", "quit"]);
  });
});

describe("/session", () => {
  test("shows the id as the shortest prefix unique among this directory's sessions", () => {
    const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
    // Made within a few milliseconds, these UUIDv7 ids share their first 8 characters, and more.
    const made = Array.from({ length: 6 }, () => {
      const s = SessionManager.init({ cwd: CWD, ...M });
      s.appendMessage(messageToDisk(textMessage("system", "sys")));
      s.appendMessage(messageToDisk(textMessage("user", "hi")), M);
      s.close();
      return s.sessionId;
    });
    expect(new Set(made.map((id) => id.slice(0, 8))).size).toBe(1);

    const open = agent(M, KEYS, SessionManager.init({ cwd: CWD, ...M }));
    const ids = [...made, open.session.sessionId];
    let withOpen = 8;
    while (new Set(ids.map((id) => id.slice(0, withOpen))).size < ids.length) withOpen++;
    const line = output("/session", open).split("\n")[0]!;
    expect(line).toBe(`Session  ${open.session.sessionId.slice(0, withOpen)}`);
    expect(withOpen).toBeGreaterThan(8);
  });
});
