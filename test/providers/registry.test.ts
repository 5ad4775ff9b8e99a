// A provider is one row of the table (src/providers/registry.ts): a third
// provider, registered here and nowhere else, speaking Chat Completions to the
// test server under its own key variable, shows in --help, is taken by
// --provider and AWL_PROVIDER, is listed and switched to by /model, is named
// by the other providers' remedies, answers a real turn, and has its key kept
// from bash and scrubbed from tool output, without any other file knowing it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { parseArgs } from "../../src/cli/args";
import { withCommandLineAdvice } from "../../src/cli/advice";
import { help } from "../../src/cli/help";
import { chooseModel } from "../../src/cli/model-choice";
import { AdvisedError, createProvider } from "../../src/providers";
import { Catalogues } from "../../src/providers/catalogue";
import { openaiList } from "../../src/providers/catalogue-wire";
import { contextWindow, parseModelSpec } from "../../src/providers/models";
import { bearerHeaders, OpenAIProvider } from "../../src/providers/openai";
import { registerProvider, type ProviderRow } from "../../src/providers/registry";
import { SessionManager } from "../../src/session";
import { colorsFor } from "../../src/ui/render/colors";
import { parseCommand, runCommand } from "../../src/ui/commands";
import { useSessionRoot } from "../session/helpers";
import { startTestServer, type TestServer } from "../support/server";

const FAKE: ProviderRow = {
  name: "fake",
  label: "Fake",
  keyVariable: "FAKE_API_KEY",
  keyHelp: "key for the fake provider",
  baseUrlVariable: "FAKE_BASE_URL",
  baseUrlHelp: "the fake provider's base URL",
  defaultBaseUrl: "http://127.0.0.1:9/v1",
  keyOptional: false,
  apis: ["openai-chat"],
  ids: { pattern: /^fake-/i, shown: "fake-…" },
  defaultModel: "fake-1",
  defaultFamilies: [/^fake-\d+$/],
  models: [
    { id: "fake-2", displayName: "Fake 2", created: Date.parse("2026-10-01"), maxInputTokens: 64_000 },
    { id: "fake-1", displayName: "Fake 1", created: Date.parse("2026-01-01"), maxInputTokens: 32_000 },
  ],
  windows: [["fake-", 16_000]],
  thinking: [],
  prices: {},
  catalogue: { headers: bearerHeaders, page: (base) => `${base}/models`, parse: openaiList },
  connect: (connection) => new OpenAIProvider(connection, "openai-chat"),
};

const KEY = "fake-key-0123456789abcdef0123456789";
let unregister: () => void;
beforeAll(() => {
  unregister = registerProvider(FAKE);
});
afterAll(() => unregister());

describe("a provider added as a row", () => {
  test("--help names it among the providers and lists its variables", () => {
    const text = help();
    expect(text).toContain("--provider <name>        anthropic, openai or fake (default:");
    expect(text).toMatch(/^ {2}FAKE_API_KEY {17}key for the fake provider$/m);
    expect(text).toMatch(/^ {2}FAKE_BASE_URL {16}the fake provider's base URL$/m);
    expect(text).toContain("e.g. claude-sonnet-5-5, gpt-5.4-mini, fake-1, or provider/model");
  });

  test("--provider, AWL_PROVIDER, its key alone and its ids choose it; what is refused names it", () => {
    expect(parseArgs(["--provider", "fake", "-p", "hi"]).provider).toBe("fake");
    expect(() => parseArgs(["--provider", "nope"])).toThrow("unknown provider 'nope': use anthropic, openai or fake (see awl --help)");
    expect(chooseModel({}, undefined, { AWL_PROVIDER: "fake" })).toEqual({ provider: "fake", model: "fake-1" });
    expect(() => chooseModel({}, undefined, { AWL_PROVIDER: "nope" })).toThrow("AWL_PROVIDER=nope is not a provider awl knows: use anthropic, openai or fake");
    expect(chooseModel({}, undefined, { FAKE_API_KEY: KEY })).toEqual({ provider: "fake", model: "fake-1" });
    expect(chooseModel({ model: "fake-2" }, undefined, {})).toEqual({ provider: "fake", model: "fake-2" });
    expect(parseModelSpec("fake/other")).toEqual({ provider: "fake", model: "other" });
    expect(() => parseModelSpec("fake/")).toThrow('"fake/" names no model: write fake/<model>, e.g. fake/fake-1');
    expect(() => parseModelSpec("google/")).toThrow("(claude-… is anthropic's, gpt-… and o… openai's, fake-… fake's, any other stays with the current provider)");
    expect(contextWindow("fake", "fake-2")).toBe(64_000);
    expect(contextWindow("fake", "fake-0-old")).toBe(16_000);
  });

  test("without its key it is refused with a remedy, and the other providers' remedies name it", () => {
    const onCommandLine = (name: string) => {
      try {
        createProvider(name, {});
      } catch (error) {
        if (error instanceof AdvisedError) return withCommandLineAdvice(error.fact, error.remedy);
        throw error;
      }
      throw new Error("not refused");
    };
    expect(onCommandLine("fake")).toBe("FAKE_API_KEY is not set: export it, or choose another provider with --provider anthropic or openai");
    expect(onCommandLine("anthropic")).toBe("ANTHROPIC_API_KEY is not set: export it, or choose another provider with --provider openai or fake");
  });
});

describe("/model with a provider added as a row", () => {
  useSessionRoot();
  const c = colorsFor({ isTTY: false });
  const catalogues = new Catalogues({});
  const output = (line: string, agent: Agent) => {
    const result = runCommand(parseCommand(line)!, agent, c, catalogues);
    if (typeof result !== "object" || !("output" in result)) throw new Error(`no output: ${JSON.stringify(result)}`);
    return result.output;
  };
  const agentOn = (env: Record<string, string>) => {
    const model = { provider: "openai", model: "gpt-4o" };
    return new Agent({ session: SessionManager.init({ cwd: "/proj", ...model }), cwd: "/proj", model, env });
  };

  test("switches to it by name or by its ids, lists its models, and its remedy names the others", () => {
    const agent = agentOn({ OPENAI_API_KEY: "sk-test", FAKE_API_KEY: KEY });
    expect(output("/model fake/fake-2", agent)).toBe("Using fake/fake-2 from the next prompt on.");
    expect(output("/model fake-1", agent)).toBe("Using fake/fake-1 from the next prompt on.");
    const listed = output("/model", agent);
    expect(listed.split("\n").slice(0, 4)).toEqual([
      "Active: fake/fake-1 (window 32k)",
      "fake's models, newest first, built into awl (the provider is not configured, so its list was not asked for):",
      "  fake-2  Fake 2  2026-10-01  window 64k",
      "  fake-1  Fake 1  2026-01-01  window 32k  (active)",
    ]);

    const withoutKey = agentOn({ OPENAI_API_KEY: "sk-test" });
    expect(output("/model fake/fake-2", withoutKey)).toBe(
      "FAKE_API_KEY is not set: awl reads it when it starts (/quit, export it, start awl again); or choose another provider: /model anthropic/claude-sonnet-5-5 or /model openai/gpt-5.4-mini\nStill using openai/gpt-4o.",
    );
  });
});

describe("a turn with a provider added as a row", () => {
  let server: TestServer;
  let root: string;
  const saved = { FAKE_API_KEY: process.env.FAKE_API_KEY, AWL_BASH_PASS_ENV: process.env.AWL_BASH_PASS_ENV, AWL_SESSION_DIR: process.env.AWL_SESSION_DIR };
  beforeAll(async () => {
    server = await startTestServer({ openaiKey: KEY });
    root = mkdtempSync(join(tmpdir(), "awl-registry-"));
    process.env.AWL_SESSION_DIR = join(root, "sessions");
    // bash takes awl's own environment: the key is there, and named on purpose in AWL_BASH_PASS_ENV, which never passes a provider's key.
    process.env.FAKE_API_KEY = KEY;
    process.env.AWL_BASH_PASS_ENV = "FAKE_API_KEY";
  });
  afterAll(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test("it answers through its own protocol; its key never reaches bash and is scrubbed from what a tool prints", async () => {
    const project = join(root, "project");
    writeFileSync(join(root, "k"), `${KEY}\n`);
    await Bun.write(join(project, ".keep"), "");
    const env = { FAKE_API_KEY: KEY, FAKE_BASE_URL: server.openaiUrl, AWL_RETRY_BASE_MS: "5", XDG_CONFIG_HOME: join(root, "config") };
    const model = { provider: "fake", model: "fake-1" };
    const session = SessionManager.init({ cwd: project, ...model });
    const agent = new Agent({ session, cwd: project, model, env });
    server.reply(
      { blocks: [{ type: "toolUse", id: "c1", name: "bash", input: { command: `cat ../k; echo "in bash: \${FAKE_API_KEY-unset}"` } }] },
      { blocks: [{ type: "text", text: "done" }] },
    );
    await agent.runTurn("show the key", new AbortController().signal, () => {});

    const lines = (await Bun.file(session.sessionFile!).text()).split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const messages = lines.filter((line) => line.type === "message").map((line) => line.message);
    const result = messages.flatMap((m) => m.content).find((block: { type: string }) => block.type === "toolResult");
    expect(result.content).toContain("[redacted FAKE_API_KEY]\nin bash: unset");
    expect(JSON.stringify(lines)).not.toContain(KEY);
    const answers = messages.filter((m) => m.role === "assistant");
    expect(answers.map((m) => [m.provider, m.api])).toEqual([
      ["fake", "openai-chat"],
      ["fake", "openai-chat"],
    ]);
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });
});
