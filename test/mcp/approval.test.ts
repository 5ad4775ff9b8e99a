// An MCP server's tool in the approvals (src/agent/approval.ts): asked about
// in ask, whatever the server says of it; "always" allows that tool. A real
// server (test/support/mcp-server.ts), a real session, the test server.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Agent } from "../../src/agent/agent";
import { Approvals, type ApprovalRequest, type Ask } from "../../src/agent/approval";
import { toolsFor } from "../../src/mcp";
import { McpServers } from "../../src/mcp/servers";
import { SessionManager } from "../../src/session";
import { addServerTools } from "../../src/tools";
import { useAgentFixture } from "../agent/helpers";

const fx = useAgentFixture();
const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
const SERVER = join(import.meta.dir, "../support/mcp-server.ts");
afterAll(() => addServerTools(() => [])); // the registry is the process's: other test files see none

test("ask asks about a server's tool even when the server calls it read-only, says so, and 'always' allows that tool", async () => {
  const env = { ...fx.env, PATH: process.env.PATH!, XDG_DATA_HOME: join(fx.project, "../data") }; // the server's log under the test's root
  const servers = new McpServers([{ name: "t", origin: "command line", file: "/x", raw: { command: "bun", args: [SERVER] } }], fx.project, env);
  await servers.start();
  await servers.waitForAll(30_000);
  addServerTools(() => toolsFor(servers));
  try {
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env, approvals: new Approvals("ask", fx.env) });
    const asked: ApprovalRequest[] = [];
    const ask: Ask = async (request) => (asked.push(request), { kind: "always" });
    const echo = (text: string) => ({ type: "toolUse" as const, name: "mcp__t__echo", input: { text } });
    fx.server.reply({ blocks: [echo("one")] }, { blocks: [echo("two")] }, { blocks: [{ type: "text", text: "done" }] });
    const result = await agent.runTurn("go", new AbortController().signal, () => {}, ask);
    expect(result.stopReason).toBe("stop");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.always).toEqual(["mcp__t__echo"]);
    expect(asked[0]!.note).toContain("the server says this tool only reads");
    expect(JSON.stringify(fx.server.requests[2]!.body)).toContain("echo: two");
  } finally {
    await servers.close();
  }
});

test("a server's long answer is cut as every tool's output is: its first 2,000 lines, never a character split", async () => {
  const env = { ...fx.env, PATH: process.env.PATH!, XDG_DATA_HOME: join(fx.project, "../data") };
  const servers = new McpServers([{ name: "t", origin: "command line", file: "/x", raw: { command: "bun", args: [SERVER] } }], fx.project, env);
  await servers.start();
  await servers.waitForAll(30_000);
  addServerTools(() => toolsFor(servers));
  try {
    const agent = new Agent({ session: SessionManager.init({ cwd: fx.project, ...model }), cwd: fx.project, model, env: fx.env, approvals: new Approvals("auto", fx.env) });
    const long = Array.from({ length: 3000 }, (_, i) => `line ${i} é`).join("\n"); // ~33 KB: within the bytes, past the lines
    fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp__t__echo", input: { text: long } }] }, { blocks: [{ type: "text", text: "done" }] });
    await agent.runTurn("go", new AbortController().signal, () => {});
    const result = fx.server.requests[1]!.body.messages.at(-1).content[0].content as string;
    expect(result).toContain("line 1999 é\n[cut: the result was");
    expect(result).not.toContain("line 2000 é");
    expect(result).not.toContain("\uFFFD");
  } finally {
    await servers.close();
  }
});
