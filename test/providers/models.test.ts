import { describe, expect, test } from "bun:test";
import { Conversation, type Message } from "../../src/conversation";
import { EXIT_USAGE, UserError } from "../../src/errors";
import { AdvisedError, createProvider } from "../../src/providers";
import { commandLineAdvice, onCommandLine, withCommandLineAdvice } from "../../src/cli/advice";
import { replAdvice, replMessage } from "../../src/ui/advice";
import { applyStreamEvent, finalizeMessage } from "../../src/providers/assemble";
import {
  DEFAULT_CONTEXT_WINDOW,
  builtinDefault,
  contextWindow,
  contextWindowFromEnv,
  defaultModel,
  foreignPrefix,
  parseModelSpec,
} from "../../src/providers/models";
import { providerRows } from "../../src/providers/registry";
import type { StreamEvent } from "../../src/providers/provider";

describe("model specs", () => {
  test("provider/model, bare ids inferred from well-known prefixes, others left to the current provider", () => {
    expect(parseModelSpec("openai/gpt-4o")).toEqual({ provider: "openai", model: "gpt-4o" });
    expect(parseModelSpec("anthropic/claude-opus-4-5")).toEqual({ provider: "anthropic", model: "claude-opus-4-5" });
    expect(parseModelSpec("claude-sonnet-4-5")).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
    for (const m of ["gpt-5-mini", "o1", "o3-mini", "o4-mini"]) expect(parseModelSpec(m)).toEqual({ provider: "openai", model: m });
    expect(parseModelSpec("llama3.2")).toEqual({ model: "llama3.2" });
    expect(parseModelSpec("meta-llama/Llama-3.1-8B")).toEqual({ model: "meta-llama/Llama-3.1-8B" });
  });

  // The rules as a table: what each spec means, or the refusal's first words (a UsageError that says what is accepted).
  test.each([
    ["anthropic/", { refused: '"anthropic/" names no model: write anthropic/<model>, e.g. anthropic/claude-sonnet-5-5' }],
    ["openai/", { refused: '"openai/" names no model: write openai/<model>, e.g. openai/gpt-5.4-mini' }],
    ["Anthropic/", { refused: '"Anthropic/" names no model: write anthropic/<model>' }],
    ["google/", { refused: '"google/" names no model, and google is not a provider: give provider/model (providers: anthropic, openai' }],
    ["/gpt-5", { refused: '"/gpt-5" names no provider before the slash: give provider/model' }],
    ["", { refused: "no model given: give provider/model" }],
    ["   ", { refused: "no model given: give provider/model" }],
    ["openai gpt-5", { refused: '"openai gpt-5" is not a model id (ids have no spaces): give provider/model' }],
    ["openai/gpt-5", { provider: "openai", model: "gpt-5" }],
    ["OpenAI/gpt-5", { provider: "openai", model: "gpt-5" }],
    [" anthropic/claude-opus-4-5 ", { provider: "anthropic", model: "claude-opus-4-5" }],
    ["openai/anthropic/claude-sonnet-4.5", { provider: "openai", model: "anthropic/claude-sonnet-4.5" }],
    ["google/gemini-2.5-pro", { model: "google/gemini-2.5-pro" }],
    ["meta-llama/Llama-3", { model: "meta-llama/Llama-3" }],
    ["claude-sonnet-4-5", { provider: "anthropic", model: "claude-sonnet-4-5" }],
    ["gpt-4o", { provider: "openai", model: "gpt-4o" }],
    ["o3", { provider: "openai", model: "o3" }],
    ["llama3.2", { model: "llama3.2" }],
    ["gemini-2.5-pro", { model: "gemini-2.5-pro" }],
  ] as const)("%p", (spec, expected) => {
    if ("refused" in expected) {
      let error: unknown;
      try {
        parseModelSpec(spec);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).exitCode).toBe(EXIT_USAGE);
      expect((error as UserError).message).toStartWith(expected.refused);
      expect((error as UserError).message).not.toMatch(/--\w|(^|\s)\/model/); // no advice for one place: the caller's words are its own
    } else {
      expect(parseModelSpec(spec)).toEqual(expected);
    }
  });

  test("a refusal of a prefix that is not a provider says what is accepted", () => {
    expect(() => parseModelSpec("google/")).toThrow(
      '"google/" names no model, and google is not a provider: give provider/model (providers: anthropic, openai; e.g. anthropic/claude-sonnet-5-5), or a model id alone (claude-… is anthropic\'s, gpt-… and o… openai\'s, any other stays with the current provider)',
    );
  });

  test("foreignPrefix names a prefix that is not a provider, so the reply can say where the id goes", () => {
    expect(foreignPrefix(parseModelSpec("google/gemini-2.5-pro"))).toBe("google");
    expect(foreignPrefix(parseModelSpec("meta-llama/Llama-3"))).toBe("meta-llama");
    expect(foreignPrefix(parseModelSpec("openai/anthropic/claude-sonnet-4.5"))).toBeUndefined();
    expect(foreignPrefix(parseModelSpec("llama3.2"))).toBeUndefined();
  });

  test("each provider has a default; AWL_MODEL overrides it for its own provider", () => {
    expect(defaultModel("openai")).toBe(builtinDefault("openai"));
    expect(defaultModel("anthropic", { AWL_MODEL: "claude-opus-4-5" })).toBe("claude-opus-4-5");
    expect(defaultModel("openai", { AWL_MODEL: "claude-opus-4-5" })).toBe("gpt-5.4-mini");
  });
});

describe("context windows", () => {
  test.each([
    ["anthropic", "claude-sonnet-4-5", 200_000],
    ["anthropic", "claude-sonnet-4-5-20250929", 200_000],
    ["anthropic", "claude-opus-4-5", 200_000],
    ["anthropic", "claude-opus-4-1-20250805", 200_000],
    ["anthropic", "claude-haiku-4-5", 200_000],
    ["anthropic", "claude-3-7-sonnet-latest", 200_000],
    ["anthropic", "claude-3-5-haiku-20241022", 200_000],
    ["anthropic", "claude-sonnet-4-6", 1_000_000],
    ["anthropic", "claude-opus-4-6", 1_000_000],
    ["openai", "gpt-5", 272_000],
    ["openai", "gpt-5-mini", 272_000],
    ["openai", "gpt-5-nano-2025-08-07", 272_000],
    ["openai", "gpt-5.1", 272_000],
    ["openai", "gpt-5-chat-latest", 128_000],
    ["openai", "gpt-5.4", 922_000],
    ["openai", "gpt-4.1", 1_047_576],
    ["openai", "gpt-4.1-mini", 1_047_576],
    ["openai", "gpt-4o", 128_000],
    ["openai", "gpt-4o-mini", 128_000],
    ["openai", "gpt-4", 8_192],
    ["openai", "o1-mini", 128_000],
    ["openai", "o3", 200_000],
    ["openai", "o3-mini", 200_000],
    ["openai", "o4-mini", 200_000],
    ["openai", "GPT-4o", 128_000],
  ] as const)("%s/%s: %i tokens", (provider, model, tokens) => {
    expect(contextWindow(provider, model)).toBe(tokens);
  });

  test("ids with a vendor prefix (OpenRouter) are found, a Claude through the OpenAI-style API too", () => {
    expect(contextWindow("openai", "openai/gpt-4o")).toBe(128_000);
    expect(contextWindow("openai", "anthropic/claude-sonnet-4.5")).toBe(200_000);
    expect(contextWindow("openai", "anthropic/claude-sonnet-4.6")).toBe(1_000_000);
  });

  test("a model the table does not know (a local server's) gets the default", () => {
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
    expect(contextWindow("openai", "llama3.2")).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindow("openai", "qwen2.5-coder:32b")).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindow("anthropic", "")).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  test("every default and suggested model has a row, and no row is shadowed by an earlier, shorter prefix", () => {
    for (const row of providerRows()) {
      for (const model of [row.defaultModel, ...row.models.map((m) => m.id)]) expect(contextWindow(row.name, model)).not.toBe(DEFAULT_CONTEXT_WINDOW);
      const prefixes = row.windows.map(([prefix]) => prefix);
      prefixes.forEach((prefix, i) => expect(prefixes.slice(0, i).filter((earlier) => prefix.startsWith(earlier))).toEqual([]));
    }
  });
});

describe("AWL_CONTEXT_WINDOW", () => {
  test.each([
    ["32768", 32_768],
    ["200k", 200_000],
    ["200K", 200_000],
    ["1m", 1_000_000],
    ["1.5M", 1_500_000],
    [" 64k ", 64_000],
    ["1_000_000", 1_000_000],
  ])("%p is %i tokens", (value, tokens) => {
    expect(contextWindowFromEnv({ AWL_CONTEXT_WINDOW: value })).toBe(tokens);
  });

  test("unset or empty: no override", () => {
    expect(contextWindowFromEnv({})).toBeUndefined();
    expect(contextWindowFromEnv({ AWL_CONTEXT_WINDOW: "" })).toBeUndefined();
  });

  test.each(["0", "-5", "abc", "1.5", "12kb", "1e6", "0.0001k", "200 000"])("%p is a usage error naming the variable and what it accepts", (value) => {
    let error: unknown;
    try {
      contextWindowFromEnv({ AWL_CONTEXT_WINDOW: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(EXIT_USAGE);
    expect((error as UserError).message).toBe(`AWL_CONTEXT_WINDOW must be a number of tokens such as 32768, 200k or 1m, not "${value}"`);
  });
});

describe("createProvider", () => {
  const thrown = (make: () => unknown): AdvisedError => {
    try {
      make();
    } catch (error) {
      if (error instanceof AdvisedError) return error;
      throw error;
    }
    throw new Error("did not throw");
  };

  test("a missing key is a user error: the fact, and a remedy each front end words its own way; a local OpenAI-compatible server needs none", () => {
    const anthropic = thrown(() => createProvider("anthropic", {}));
    expect(anthropic).toBeInstanceOf(UserError);
    expect(anthropic.fact).toBe("ANTHROPIC_API_KEY is not set");
    expect(anthropic.remedy).toEqual({ kind: "key", provider: "anthropic", variable: "ANTHROPIC_API_KEY", others: ["openai"] });
    expect(withCommandLineAdvice(anthropic.fact, anthropic.remedy)).toBe("ANTHROPIC_API_KEY is not set: export it, or choose another provider with --provider openai");
    expect(replMessage(anthropic)).toBe(
      "ANTHROPIC_API_KEY is not set: awl reads it when it starts (/quit, export it, start awl again); or choose another provider: /model openai/gpt-5.4-mini",
    );

    const openai = thrown(() => createProvider("openai", {}));
    expect(withCommandLineAdvice(openai.fact, openai.remedy)).toBe(
      "OPENAI_API_KEY is not set: export it, set OPENAI_BASE_URL for a local server, or choose another provider with --provider anthropic",
    );
    expect(replMessage(openai)).toBe(
      "OPENAI_API_KEY is not set: awl reads it (or OPENAI_BASE_URL, for a local server) when it starts (/quit, export it, start awl again); or choose another provider: /model anthropic/claude-sonnet-5-5",
    );
    expect(createProvider("openai", { OPENAI_BASE_URL: "http://localhost:11434/v1" }).name).toBe("openai");
  });

  test("on the command line the error leaves worded with flags; the REPL's words name no flag", () => {
    expect(() => onCommandLine(() => createProvider("anthropic", {}))).toThrow(
      new UserError("ANTHROPIC_API_KEY is not set: export it, or choose another provider with --provider openai"),
    );
    for (const remedy of [{ kind: "model", model: "claude-x" } as const, { kind: "model", model: "claude-x", newer: ["claude-y"] } as const, thrown(() => createProvider("anthropic", {})).remedy, thrown(() => createProvider("openai", {})).remedy]) {
      expect(replAdvice(remedy)).not.toMatch(/--/);
      expect(replAdvice(remedy)).toContain("/model");
      expect(commandLineAdvice(remedy)).toMatch(/--(model|provider)/);
    }
  });
});

describe("assembling a message from stream events", () => {
  const events: StreamEvent[] = [
    { type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } },
    { type: "delta", index: 0, text: "hm" },
    { type: "signature", index: 0, signature: "sig", origin: { api: "anthropic-messages", fingerprint: "0123456789ab" } },
    { type: "blockStart", index: 1, block: { type: "text", text: "" } },
    { type: "delta", index: 1, text: "Hello" },
    { type: "blockStart", index: 2, block: { type: "toolUse", id: "a", name: "read", input: "" } },
    { type: "delta", index: 2, text: '{"path":"x"}' },
    { type: "blockStart", index: 3, block: { type: "toolUse", id: "b", name: "ls", input: "" } },
    { type: "blockStart", index: 4, block: { type: "toolUse", id: "c", name: "read", input: "" } },
    { type: "delta", index: 4, text: '{"pa' },
  ];
  const build = () => {
    const message: Message = { role: "assistant", content: [] };
    for (const event of events) applyStreamEvent(message, event);
    return message;
  };

  test("blocks grow in place; a tool call without input gets {}", () => {
    const message = finalizeMessage(build());
    expect(message.content).toEqual([
      { type: "thinking", thinking: "hm", signature: "sig", origin: { api: "anthropic-messages", fingerprint: "0123456789ab" } },
      { type: "text", text: "Hello" },
      { type: "toolUse", id: "a", name: "read", input: '{"path":"x"}' },
      { type: "toolUse", id: "b", name: "ls", input: "{}" },
      { type: "toolUse", id: "c", name: "read", input: '{"pa' },
    ]);
    expect(new Conversation([message]).messages).toHaveLength(1);
  });

  test("after a failure, tool calls whose input is incomplete are dropped", () => {
    const message = finalizeMessage(build(), { dropIncompleteToolUses: true });
    expect(message.content.map((b) => (b.type === "toolUse" ? b.id : b.type))).toEqual(["thinking", "text", "a"]);
  });
});
