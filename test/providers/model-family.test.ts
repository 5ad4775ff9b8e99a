// Reading a list of models (src/providers/model-family.ts): families, the
// default among them, the newest of a family, and what a typo resembles.
import { describe, expect, test } from "bun:test";
import { family, newestDefault, newestOfFamily, resembling } from "../../src/providers/model-family";
import type { ModelInfo } from "../../src/providers/model-info";

const at = (id: string, date: string): ModelInfo => ({ id, created: Date.parse(date) });

describe("families", () => {
  test.each([
    ["claude-sonnet-5-5", "claude-sonnet"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet"],
    ["claude-3-5-sonnet-20241022", "claude-sonnet"],
    ["claude-opus-5", "claude-opus"],
    ["gpt-5.4-mini", "gpt-mini"],
    ["gpt-5.5", "gpt"],
    ["o4-mini", "o-mini"],
  ])("%s is of %s", (id, name) => expect(family(id)).toBe(name));
});

describe("the default", () => {
  test("Anthropic: the newest Sonnet by its date, whatever the order of the list", () => {
    const list = [at("claude-opus-5-5", "2026-09-24"), at("claude-sonnet-5", "2026-06-30"), at("claude-sonnet-5-5", "2026-09-28"), at("claude-haiku-4-5-20251001", "2025-10-15")];
    expect(newestDefault("anthropic", list)).toBe("claude-sonnet-5-5");
    expect(newestDefault("anthropic", [at("claude-opus-5-5", "2026-09-24")])).toBeUndefined();
  });

  test("OpenAI: the newest gpt-<version>-mini, else the newest gpt-<version>; never a snapshot, audio or realtime id", () => {
    const minis = [at("gpt-5-mini", "2025-08-07"), at("gpt-5.4-mini", "2026-03-17"), at("gpt-5.4-mini-2026-03-17", "2026-03-18"), at("gpt-realtime-mini", "2026-06-01"), at("gpt-audio-mini", "2026-06-01")];
    expect(newestDefault("openai", [...minis, at("gpt-5.5", "2026-04-23")])).toBe("gpt-5.4-mini");
    expect(newestDefault("openai", [at("gpt-5.5", "2026-04-23"), at("gpt-5.4", "2026-03-05"), at("gpt-5.5-2026-04-23", "2026-04-24")])).toBe("gpt-5.5");
    expect(newestDefault("openai", [at("llama3.2", "2025-01-01")])).toBeUndefined();
  });
});

test("the newest of a family leaves out the model itself and other families", () => {
  const list = [at("claude-sonnet-5-5", "2026-09-28"), at("claude-opus-5-5", "2026-09-24"), at("claude-sonnet-5", "2026-06-30"), at("claude-sonnet-4-6", "2026-02-17"), at("claude-sonnet-4-5", "2025-09-29")];
  expect(newestOfFamily(list, "claude-sonnet-4-5")).toEqual(["claude-sonnet-5-5", "claude-sonnet-5", "claude-sonnet-4-6"]);
  expect(newestOfFamily(list, "claude-sonnet-4-5", 1)).toEqual(["claude-sonnet-5-5"]);
  expect(newestOfFamily(list, "llama3.2")).toEqual([]);
});

describe("typos", () => {
  const ids = ["claude-sonnet-5-5", "claude-opus-5-5", "gpt-5.4-mini"];
  test.each([
    ["claude-sonet-5-5", "claude-sonnet-5-5"],
    ["claude-sonnet5-5", "claude-sonnet-5-5"],
    ["claude-opsu-5-5", "claude-opus-5-5"],
    ["gpt-5.4-mni", "gpt-5.4-mini"],
  ])("%s resembles %s", (typed, id) => expect(resembling(typed, ids)).toBe(id));

  test.each(["claude-sonnet-5-5", "claude-opus-4-5", "claude-sonnet-6", "llama3.2", "claude-haiku-5-5"])("%s resembles nothing listed (listed, another version, or far off)", (typed) =>
    expect(resembling(typed, ids)).toBeUndefined(),
  );
});
