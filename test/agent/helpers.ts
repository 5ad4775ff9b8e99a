// Shared set-up for agent-level tests: a strict test server, a temporary
// session root and project directory, and an environment pointing awl at them.
import { afterEach, beforeEach } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServerOptions } from "../support/server";
import type { ApprovalAnswer, ApprovalRequest, Ask } from "../../src/agent/approval";

export async function agentFixture(options: TestServerOptions = {}) {
  const server = await startTestServer(options);
  const root = mkdtempSync(join(tmpdir(), "awl-agent-"));
  const sessions = join(root, "sessions");
  const project = join(root, "project");
  await Bun.write(join(project, ".keep"), "");
  process.env.AWL_SESSION_DIR = sessions;
  const env: Record<string, string> = {
    ANTHROPIC_API_KEY: server.anthropicKey,
    ANTHROPIC_BASE_URL: server.anthropicUrl,
    OPENAI_API_KEY: server.openaiKey,
    OPENAI_BASE_URL: server.openaiUrl,
    AWL_RETRY_BASE_MS: "5",
    // The person's global AGENTS.md is looked for here, not in the real home.
    XDG_CONFIG_HOME: join(root, "config"),
  };
  return {
    server,
    sessions,
    project,
    env,
    async cleanup() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The session file's lines, parsed; partials only when asked for. */
export { readLog as logLines } from "../support/session-log";

export type AgentFixture = Awaited<ReturnType<typeof agentFixture>>;

/** A fresh fixture for each test of the calling file, cleaned up after it; the object returned stays the same. */
export function useAgentFixture(options: TestServerOptions = {}): AgentFixture {
  const fx = {} as AgentFixture;
  beforeEach(async () => {
    Object.assign(fx, await agentFixture(options));
  });
  afterEach(async () => {
    await fx.cleanup();
  });
  return fx;
}

/** An Ask that answers from a list, recording what it was asked. */
export function answers(...list: ApprovalAnswer[]): Ask & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  const ask = async (request: ApprovalRequest) => {
    asked.push(request);
    const answer = list.shift();
    if (!answer) throw new Error(`not expected to ask about ${JSON.stringify(request.effect)}`);
    return answer;
  };
  return Object.assign(ask, { asked });
}
