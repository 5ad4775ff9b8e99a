// The turn's thinking and max_tokens from an effort and what the model takes,
// and what a refusal's words teach. (What reaches the API is in
// test/agent/thinking.test.ts, against the test server.)
import { describe, expect, test } from "bun:test";
import { learnThinking, lessonOf, thinkingForms } from "../../src/providers/thinking-forms";
import { planTurn, refuseEffort } from "../../src/providers/thinking-plan";

const anthropic = (model: string, effort: Parameters<typeof planTurn>[0]["effort"], o: { outputLimit?: number; window?: number } = {}) =>
  planTurn({ provider: "anthropic", effort, forms: thinkingForms("anthropic", model), outputLimit: o.outputLimit, window: o.window ?? 200_000 });

describe("a turn's plan", () => {
  test("budget models: the level's budget plus a 16k answer share, max the output limit less that share", () => {
    expect(anthropic("claude-sonnet-4-5", "low", { outputLimit: 64_000 })).toEqual({ thinking: { form: "budget", budget: 4096 }, maxTokens: 4096 + 16_384, budget: 4096 });
    expect(anthropic("claude-sonnet-4-5", "xhigh", { outputLimit: 64_000 }).budget).toBe(32_768);
    expect(anthropic("claude-sonnet-4-5", "max", { outputLimit: 64_000 })).toMatchObject({ maxTokens: 50_000, budget: 50_000 - 16_384 });
    // Without a stated limit, a conservative one; within a quarter of the window too.
    expect(anthropic("claude-sonnet-4-5", "high").maxTokens).toBe(32_000);
    expect(anthropic("claude-sonnet-4-5", "high", { outputLimit: 64_000, window: 40_000 })).toEqual({ thinking: { form: "budget", budget: 5000 }, maxTokens: 10_000, budget: 5000 });
  });

  test("adaptive models: the level, and display summarized where thinking text is hidden; no effort: nothing asked", () => {
    expect(anthropic("claude-opus-4-7", "xhigh")).toEqual({ thinking: { form: "adaptive", level: "xhigh", display: "summarized" }, maxTokens: 16_384, budget: 0 });
    expect(anthropic("claude-sonnet-4-6", "max").thinking).toEqual({ form: "adaptive", level: "max" });
    expect(anthropic("claude-opus-4-7", undefined)).toEqual({ thinking: undefined, maxTokens: 16_384, budget: 0 });
    expect(anthropic("claude-sonnet-4-5", "off").thinking).toEqual({ form: "off" });
  });

  test("refused before any request: a level the model does not list, off where thinking is always on", () => {
    const refuse = (model: string, effort: Parameters<typeof refuseEffort>[0]) => refuseEffort(effort, thinkingForms("anthropic", model), "anthropic", model);
    expect(refuse("claude-sonnet-4-6", "xhigh")).toBe("claude-sonnet-4-6 does not take effort xhigh: it takes low, medium, high, max");
    expect(refuse("claude-mythos-5", "off")).toBe("claude-mythos-5 always thinks: effort off is not possible (low thinks least)");
    expect(refuse("claude-haiku-4-5", "max")).toBeUndefined(); // a budget model without levels: max is a budget
    expect(refuse("claude-opus-4-7", "max")).toBeUndefined();
    expect(refuseEffort("xhigh", thinkingForms("openai", "o3"), "openai", "o3")).toBeUndefined(); // OpenAI's own 400 says
  });
});

describe("what refusals teach", () => {
  test("the API's words for the other form and for a binding", () => {
    expect(lessonOf('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.')).toEqual({ adaptive: true, budget: false });
    expect(lessonOf("adaptive thinking is not supported on this model")).toEqual({ adaptive: false, budget: true });
    expect(lessonOf("messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\".")).toEqual({ binds: true });
    expect(lessonOf("messages.1.content.0: Invalid `signature` in `thinking` block")).toBeUndefined();
  });

  test("a lesson outranks the catalogue, which outranks the table", () => {
    const model = "claude-sonnet-4-6-lesson-test";
    expect(thinkingForms("anthropic", model)).toMatchObject({ adaptive: true, budget: true, binds: false });
    expect(thinkingForms("anthropic", model, { id: model, thinkingTypes: ["enabled"], effortLevels: ["low"] })).toMatchObject({ adaptive: false, budget: true, levels: ["low"] });
    learnThinking("anthropic", model, { adaptive: true, budget: false, binds: true });
    expect(thinkingForms("anthropic", model, { id: model, thinkingTypes: ["enabled"] })).toMatchObject({ adaptive: true, budget: false, binds: true });
  });
});
