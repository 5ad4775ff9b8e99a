// The REPL's slash commands (src/ui/commands.ts): which lines are commands,
// and what /model, /new, /resume and /session do, on a real Agent over a real
// session in a temporary session root. Nothing here reaches a network: /model
// only builds a provider.
import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/agent/agent";
import { describeSessions, messageToDisk, SessionManager, type ModelRef } from "../../src/session";
import { sessionLabel } from "../../src/ui/session/session-picker";
import { textMessage } from "../../src/conversation";
import { colorsFor } from "../../src/ui/render/colors";
import { commandNames, helpText, parseCommand, runCommand, type Command } from "../../src/ui/commands";
import { useSessionRoot } from "../session/helpers";
import { Catalogues } from "../../src/providers/catalogue";

useSessionRoot();
const c = colorsFor({ isTTY: false });
const KEYS = { ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test" };
const CWD = "/proj";

function agent(model: ModelRef = { provider: "openai", model: "gpt-4o" }, env: Record<string, string | undefined> = KEYS, session = SessionManager.init({ cwd: CWD, ...model })): Agent {
  return new Agent({ session, cwd: CWD, model, env });
}

/** No provider is asked for its list here: /model shows the built-in table. */
const catalogues = new Catalogues({});
const run = (line: string, a: Agent) => runCommand(parseCommand(line)!, a, c, catalogues);
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
    ["anthropic/", '"anthropic/" names no model: write anthropic/<model>, e.g. anthropic/claude-sonnet-5-5'],
    ["openai/", '"openai/" names no model: write openai/<model>, e.g. openai/gpt-5.4-mini'],
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
      "ANTHROPIC_API_KEY is not set: awl reads it when it starts (/quit, export it, start awl again); or choose another provider: /model openai/gpt-5.4-mini\nStill using openai/gpt-4o.",
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
    expect(commandNames()).toEqual(["model", "effort", "session", "rename", "export", "new", "resume", "compact", "rewind", "tree", "label", "fork", "approve", "extensions", "mcp", "init", "permissions", "help", "quit"]);
  });

  test("/help's descriptions all start in one column, two spaces past the longest command", () => {
    const rows = output("/help", agent()).split("\n").filter((row) => row.startsWith("  /"));
    expect(rows).toHaveLength(commandNames().length);
    const columns = rows.map((row) => /^ {2}\S+(?: \S+)*? {2,}/.exec(row)![0].length);
    expect(new Set(columns)).toEqual(new Set([columns[0]!]));
    expect(rows.find((row) => row.startsWith("  /export"))).toStartWith("  /export [--html|--jsonl] [file]  write this session");
  });

  test("/help fits the terminal: every row within the width, wrapped between words, continuations under their column", () => {
    for (const columns of [40, 60, 80, 120]) {
      const help = runCommand(parseCommand("/help")!, agent(), c, catalogues, columns);
      if (typeof help !== "object" || !("output" in help)) throw new Error("no output");
      const rows = help.output.split("\n");
      for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThan(columns);
      // No word is cut: the words are those of the widest layout.
      expect(help.output.split(/\s+/)).toEqual(helpText(1000).split(/\s+/));
    }
    const narrow = helpText(60).split("\n");
    const at = narrow.findIndex((row) => row.startsWith("  /model"));
    expect(narrow[at + 1]).toMatch(/^ {35}\S/); // under the description column
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

  test("shows the model's window and output limit, as the catalogue (else the built-in table) has them", () => {
    const today = agent({ provider: "anthropic", model: "claude-sonnet-5-5" });
    expect(output("/session", today)).toContain("Model    anthropic/claude-sonnet-5-5 (window 1.0M · output 128k)");
    expect(output("/session", agent({ provider: "openai", model: "llama3.2" }))).toContain("Model    openai/llama3.2\n");
  });

  test("counts messages as the session picker does, also when resumed from the tail of a compacted file", async () => {
    const M = { provider: "anthropic", model: "claude-sonnet-4-5" };
    const s = SessionManager.init({ cwd: CWD, ...M });
    s.appendMessage(messageToDisk(textMessage("system", "sys")));
    for (const n of ["one", "two", "three"]) {
      s.appendMessage(messageToDisk(textMessage("user", `prompt ${n}`)), M);
      s.appendMessage(messageToDisk(textMessage("assistant", `answer ${n}`)));
    }
    const kept = s.getBranch().findLast((e) => e.type === "message" && e.message.role === "user")!.id;
    s.appendCompaction({ n: 1, summary: "earlier", firstKeptEntryId: kept, keptPrompts: ["prompt three"], cutToolResults: [], window: 200_000, tokensBefore: 100, tokensAfter: 10, ...M });
    s.appendMessage(messageToDisk(textMessage("user", "prompt four")), M);
    s.close();
    const resumed = await SessionManager.open(s.sessionFile);
    expect(resumed.messageCount()).toBeLessThan(8); // it read only the tail
    const [listed] = describeSessions([s.sessionFile], CWD);
    expect(listed!.messageCount).toBe(8);
    expect(sessionLabel(listed!, 8, 80)).toContain("   8 msgs");
    expect(output("/session", agent(M, KEYS, resumed)).split("\n")).toContain("Messages 8 (3 in the context)");
    resumed.close();
  });
});

describe("/model with no argument", () => {
  test("the active model with its limits, the provider's models newest first, and where the list came from", () => {
    const out = output("/model", agent({ provider: "anthropic", model: "claude-opus-5-5" }));
    const lines = out.split("\n");
    expect(lines[0]).toBe("Active: anthropic/claude-opus-5-5 (window 1.0M · output 128k)");
    expect(lines[1]).toBe("anthropic's models, newest first, built into awl (the provider is not configured, so its list was not asked for):");
    expect(lines[2]).toMatch(/^ {2}claude-sonnet-5-5 +Claude Sonnet 5\.5 {2}2026-09-28 {2}window 1\.0M · output 128k$/);
    expect(lines[3]).toMatch(/^ {2}claude-opus-5-5 .*\(active\)$/);
    expect(lines.at(-1)).toBe("Any other id works too (a local server's, say): /model <id>, or /model <provider>/<id>.");
  });

  test("an id a letter off a listed one is taken, with the id it resembles", () => {
    const a = agent({ provider: "anthropic", model: "claude-opus-5-5" });
    expect(output("/model claude-sonet-5-5", a)).toBe(
      "Using anthropic/claude-sonet-5-5 from the next prompt on. anthropic does not list claude-sonet-5-5: did you mean claude-sonnet-5-5? (/model claude-sonnet-5-5)",
    );
    expect(a.model).toEqual({ provider: "anthropic", model: "claude-sonet-5-5" });
  });
});

describe("/effort", () => {
  test("sets the effort from the next prompt on; /session shows it; a level the model lacks is one line, and the effort stays", () => {
    const a = agent({ provider: "anthropic", model: "claude-opus-4-5" });
    expect(output("/effort", a)).toBe("Effort   the model's default (none chosen)");
    expect(output("/effort medium", a)).toBe("Effort medium from the next prompt on.");
    expect(a.effort).toBe("medium");
    expect(output("/session", a)).toContain("Effort   medium");
    expect(output("/effort max", a)).toBe("claude-opus-4-5 does not take effort max: it takes low, medium, high; the effort stays medium.");
    expect(output("/effort extreme", a)).toBe("Unknown effort extreme: use off, low, medium, high, xhigh, max.");
    expect(a.effort).toBe("medium");
  });

  test("off is refused for a model that always thinks", () => {
    const a = agent({ provider: "anthropic", model: "claude-fable-5" });
    expect(output("/effort off", a)).toBe("claude-fable-5 always thinks: effort off is not possible (low thinks least); the effort stays the model's default (none chosen).");
  });
});
