// A prompt larger than the model's window can take is refused before any
// request, in one line that says how large it is and what fits; nothing of it
// reaches the log, and the session goes on as if it had not been typed.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { Agent } from "../../src/agent/agent";
import { PromptTooLarge } from "../../src/agent/prompt-size";
import { SessionManager } from "../../src/session";
import { useAgentFixture } from "./helpers";

const fx = useAgentFixture({ contextWindow: 8000 });
const CLAUDE = { provider: "anthropic", model: "claude-sonnet-4-5" };

function newAgent() {
  Object.assign(fx.env, { AWL_CONTEXT_WINDOW: "8000" });
  return new Agent({ session: SessionManager.init({ cwd: fx.project, ...CLAUDE }), cwd: fx.project, model: CLAUDE, env: fx.env });
}

describe("a prompt larger than the window", () => {
  test("is refused before any request, in one line with its size and the room there is, and nothing is logged", async () => {
    const agent = newAgent();
    const huge = "word ".repeat(12_000); // 60 KB: about 15,000 tokens against a window of 8,000
    const error = await agent.runTurn(huge, new AbortController().signal, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromptTooLarge);
    const message = (error as Error).message;
    expect(message).toMatch(/^This prompt is about 15,0\d\d tokens, and claude-sonnet-4-5 \(a window of 8,000\) has room for about [\d,]+: nothing was sent/);
    expect(message).not.toContain("\n");
    const room = Number(/room for about ([\d,]+)/.exec(message)![1]!.replaceAll(",", ""));
    expect(room).toBeGreaterThan(0);
    expect(room).toBeLessThan(6000); // the window less the system prompt, the tools and the answer's reserve
    expect(fx.server.requests).toHaveLength(0);
    expect(existsSync(agent.session.sessionFile)).toBe(false);
  });

  test("a prompt that fits after it is sent as usual, into the same session", async () => {
    const agent = newAgent();
    fx.server.reply({ blocks: [{ type: "text", text: "hello" }] });
    await agent.runTurn("x".repeat(40_000), new AbortController().signal, () => {}).catch(() => {});
    const result = await agent.runTurn("a short one", new AbortController().signal, () => {});
    expect(result.stopReason).toBe("stop");
    expect(fx.server.requests).toHaveLength(1);
    expect(fx.server.requests[0]!.rawBody).not.toContain("xxxxxxxxxx");
  });
});
