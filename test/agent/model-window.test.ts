// Which window a model is measured against: an error-stated one, then
// AWL_CONTEXT_WINDOW, then the provider's catalogue (max_input_tokens), then
// the window the latest compaction was sized for, then the built-in table.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Agent } from "../../src/agent/agent";
import { windowOf } from "../../src/agent/window";
import type { ModelInfo } from "../../src/providers/model-info";
import { SessionManager } from "../../src/session";
import { agentFixture } from "./helpers";

let fx: Awaited<ReturnType<typeof agentFixture>>;
beforeEach(async () => {
  fx = await agentFixture();
});
afterEach(async () => {
  await fx.cleanup();
});

const SONNET = { provider: "anthropic", model: "claude-sonnet-5-5" };
const catalogue: Record<string, ModelInfo> = { "claude-sonnet-5-5": { id: "claude-sonnet-5-5", maxInputTokens: 500_000, maxOutputTokens: 64_000 } };

function agent(env: Record<string, string> = {}, modelInfo?: (provider: string, model: string) => ModelInfo | undefined) {
  return new Agent({ session: SessionManager.init({ cwd: fx.project, ...SONNET }), cwd: fx.project, model: SONNET, env: { ...fx.env, ...env }, modelInfo });
}

describe("the window of the model in use", () => {
  test("the catalogue's max_input_tokens, unless AWL_CONTEXT_WINDOW says otherwise; the built-in table without a catalogue", () => {
    const fromCatalogue = agent({}, (_, model) => catalogue[model]);
    expect(fromCatalogue.window()).toBe(500_000);
    expect(fromCatalogue.activeModelInfo).toMatchObject({ maxOutputTokens: 64_000 });
    expect(agent({ AWL_CONTEXT_WINDOW: "200k" }, (_, model) => catalogue[model]).window()).toBe(200_000);
    expect(agent().window()).toBe(1_000_000); // today's Sonnet in the built-in table
    expect(agent().activeModelInfo).toMatchObject({ id: "claude-sonnet-5-5", maxOutputTokens: 128_000 });
  });

  test("the catalogue's window comes before a compaction's, which comes before the table's", () => {
    const compaction = { ...SONNET, window: 300_000 };
    expect(windowOf(SONNET, compaction, {}, catalogue["claude-sonnet-5-5"])).toBe(500_000);
    expect(windowOf(SONNET, compaction, {}, undefined)).toBe(300_000);
    expect(windowOf(SONNET, compaction, { AWL_CONTEXT_WINDOW: "100k" }, catalogue["claude-sonnet-5-5"])).toBe(100_000);
    expect(windowOf(SONNET, undefined, {}, undefined)).toBe(1_000_000);
  });
});
