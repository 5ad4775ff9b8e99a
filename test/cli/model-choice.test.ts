// Which model a run uses (src/cli/model-choice.ts), with the model spec rules
// of src/providers/models.ts applied to --model and AWL_MODEL.
import { describe, expect, test } from "bun:test";
import { chooseModel } from "../../src/cli/model-choice";
import { EXIT_USAGE, UserError } from "../../src/errors";

const refusal = (make: () => unknown): UserError => {
  try {
    make();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error("not refused");
};

describe("chooseModel", () => {
  test("flags win; a resumed session keeps its model; a new one takes AWL_MODEL, then the default", () => {
    expect(chooseModel({ model: "openai/gpt-5" }, undefined, {})).toEqual({ provider: "openai", model: "gpt-5" });
    expect(chooseModel({}, { provider: "openai", model: "gpt-4o" }, { AWL_MODEL: "claude-opus-4-5" })).toEqual({ provider: "openai", model: "gpt-4o" });
    expect(chooseModel({}, undefined, { AWL_MODEL: "claude-opus-4-5" })).toEqual({ provider: "anthropic", model: "claude-opus-4-5" });
    expect(chooseModel({}, undefined, {})).toEqual({ provider: "anthropic", model: "claude-sonnet-5-5" });
  });

  test("with no model named, the catalogue's newest of the default family beats the built-in default; AWL_MODEL and flags beat both", () => {
    const newest = (provider: string) => (provider === "anthropic" ? "claude-sonnet-6" : "gpt-6-mini");
    expect(chooseModel({}, undefined, {}, newest)).toEqual({ provider: "anthropic", model: "claude-sonnet-6" });
    expect(chooseModel({ provider: "openai" }, undefined, {}, newest)).toEqual({ provider: "openai", model: "gpt-6-mini" });
    expect(chooseModel({}, undefined, { AWL_MODEL: "claude-opus-5-5" }, newest)).toEqual({ provider: "anthropic", model: "claude-opus-5-5" });
    expect(chooseModel({ model: "claude-haiku-4-5" }, undefined, {}, newest)).toEqual({ provider: "anthropic", model: "claude-haiku-4-5" });
    expect(chooseModel({}, { provider: "anthropic", model: "claude-sonnet-5" }, {}, newest)).toEqual({ provider: "anthropic", model: "claude-sonnet-5" });
  });

  test("with nothing naming a provider, the first whose key is set (or, needing none, whose base URL is set) is used", () => {
    expect(chooseModel({}, undefined, { OPENAI_API_KEY: "sk-test" })).toEqual({ provider: "openai", model: "gpt-5.4-mini" });
    expect(chooseModel({}, undefined, { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).toEqual({ provider: "openai", model: "gpt-5.4-mini" });
    // Anthropic comes first in the providers' order; a base URL alone does not make it usable.
    expect(chooseModel({}, undefined, { OPENAI_API_KEY: "sk-a", ANTHROPIC_API_KEY: "sk-ant-b" }).provider).toBe("anthropic");
    expect(chooseModel({}, undefined, { ANTHROPIC_BASE_URL: "http://127.0.0.1:1", OPENAI_API_KEY: "sk-a" }).provider).toBe("openai");
    // Whatever names a provider wins over the keys.
    expect(chooseModel({}, undefined, { OPENAI_API_KEY: "sk-a", AWL_PROVIDER: "anthropic" }).provider).toBe("anthropic");
    expect(chooseModel({}, undefined, { OPENAI_API_KEY: "sk-a", AWL_MODEL: "claude-opus-4-5" }).provider).toBe("anthropic");
    expect(chooseModel({ provider: "anthropic" }, undefined, { OPENAI_API_KEY: "sk-a" }).provider).toBe("anthropic");
    expect(chooseModel({ model: "claude-haiku-4-5" }, undefined, { OPENAI_API_KEY: "sk-a" }).provider).toBe("anthropic");
    // A model that names no provider goes to the one the keys choose.
    expect(chooseModel({ model: "llama3.2" }, undefined, { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).toEqual({ provider: "openai", model: "llama3.2" });
  });

  test("an id whose prefix is not a provider goes to the provider in use, as it is", () => {
    expect(chooseModel({ provider: "openai", model: "google/gemini-2.5-pro" }, undefined, {})).toEqual({ provider: "openai", model: "google/gemini-2.5-pro" });
    expect(chooseModel({ model: "meta-llama/Llama-3" }, { provider: "openai", model: "gpt-4o" }, {})).toEqual({ provider: "openai", model: "meta-llama/Llama-3" });
  });

  test("--model anthropic/ (no model) is a usage error that says what is accepted", () => {
    const error = refusal(() => chooseModel({ model: "anthropic/" }, undefined, {}));
    expect(error.exitCode).toBe(EXIT_USAGE);
    expect(error.message).toBe('"anthropic/" names no model: write anthropic/<model>, e.g. anthropic/claude-sonnet-5-5');
  });

  test("AWL_MODEL=google/ is a usage error that names the variable", () => {
    const error = refusal(() => chooseModel({}, undefined, { AWL_MODEL: "google/" }));
    expect(error.exitCode).toBe(EXIT_USAGE);
    expect(error.message).toStartWith('AWL_MODEL: "google/" names no model, and google is not a provider: give provider/model');
  });
});
