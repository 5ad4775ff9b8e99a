// The REPL with MCP servers, in a real terminal: the prompt never waits for
// a server, a slow one's tools are used once it answers, the tools array of
// the session stays the same, and no server outlives a killed awl.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const SERVER = join(import.meta.dir, "../support/mcp-server.ts");
const fx = useE2eFixture();
const term = useTerminal();

async function waitUntil(condition: () => boolean, what: string, limitMs = 40_000): Promise<void> {
  for (const start = Date.now(); !condition(); await Bun.sleep(50)) if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!hasTmux)("MCP in the REPL", () => {
  test("the prompt is drawn while a server hangs; a slow server's tool is called once it answers; the tools never change; a SIGKILL of awl ends every server", async () => {
    const pids = { hang: join(fx.root, "hang.pid"), slow: join(fx.root, "slow.pid") };
    const file = join(fx.root, "mcp.json");
    await Bun.write(file, JSON.stringify({
      mcpServers: {
        hang: { command: "bun", args: [SERVER], env: { MCP_TEST_HANG: "1", MCP_TEST_PID_FILE: pids.hang } },
        slow: { command: "bun", args: [SERVER], env: { MCP_TEST_DELAY_MS: "1500", MCP_TEST_PID_FILE: pids.slow } },
      },
    }));
    fx.server.reply(
      { blocks: [{ type: "toolUse", name: "mcp_find", input: { words: "adds" } }] },
      { blocks: [{ type: "toolUse", name: "mcp_call", input: { server: "slow", tool: "add", arguments: { a: 40, b: 2 } } }] },
      { blocks: [{ type: "toolUse", name: "mcp_call", input: { server: "slow", tool: "wait_for", arguments: { path: join(fx.root, "go-on") } } }] },
      { blocks: [{ type: "text", text: "It is forty-two." }] },
    );
    term.start([AWL, "--mcp-config", file], { cwd: fx.project, env: { ...fx.env, AWL_MCP_TIMEOUT: "600" } });
    await term.waitFor(/\/help for commands/);
    term.type("/mcp");
    term.keys("Enter");
    await term.waitFor(/hang\s+connecting/);
    // The slow one answers after its delay: its tools then show, and the hanging one is still connecting.
    await waitUntil(() => existsSync(pids.slow), "the slow server to start");
    for (let screen = ""; !/slow\s+ready, 3 tools/.test(screen); await Bun.sleep(200)) {
      term.type("/mcp");
      term.keys("Enter");
      screen = await term.waitFor(/connects one again/);
    }

    // Connecting one again never holds the prompt: the hanging one is back to connecting, and the REPL answers at once.
    term.type("/mcp hang");
    term.keys("Enter");
    await term.waitFor(/connects one again[\s\S]*›/);
    term.type("/mcp nosuch");
    term.keys("Enter");
    await term.waitFor(/No MCP server is named nosuch/);

    term.type("add them");
    term.keys("Enter");
    // A long call's progress shows while it runs.
    await term.waitFor(/waiting for go-on/);
    await Bun.write(join(fx.root, "go-on"), "");
    await term.waitFor(/It is forty-two\./);
    const bodies = fx.server.requests.map((r) => r.body as { tools: { name: string }[] });
    expect(bodies).toHaveLength(4);
    expect(bodies[0]!.tools.map((t) => t.name)).toEqual(["bash", "read", "write", "edit", "task", "mcp_find", "mcp_call"]);
    for (const body of bodies) expect(JSON.stringify(body.tools)).toBe(JSON.stringify(bodies[0]!.tools));
    expect(JSON.stringify(bodies[1])).toContain('\\"tool\\":\\"add\\"');
    expect(JSON.stringify(bodies[2])).toContain('"42"');
    expect(JSON.stringify(bodies[3])).toContain("the file is there");

    // awl killed outright: no exit handler runs, and still neither server is left.
    const hang = Number(readFileSync(pids.hang, "utf8"));
    const slow = Number(readFileSync(pids.slow, "utf8"));
    const awl = Number(readFileSync(`/proc/${hang}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
    process.kill(awl, "SIGKILL");
    await waitUntil(() => !existsSync(`/proc/${hang}`) && !existsSync(`/proc/${slow}`), "the servers to end");
  });
});

describe.skipIf(!hasTmux)("signing in from the REPL", () => {
  test("/mcp login NAME shows the page to open, the server connects once the browser is back, and /mcp logout forgets it", async () => {
    const http = Bun.spawn(["bun", SERVER], { env: { ...process.env, MCP_TEST_HTTP_PORT: "0", MCP_TEST_OAUTH: "1" }, stdout: "pipe", stderr: "inherit" });
    try {
      const url = new TextDecoder().decode((await http.stdout.getReader().read()).value).trim();
      const file = join(fx.root, "mcp.json");
      await Bun.write(file, JSON.stringify({ mcpServers: { web: { type: "http", url } } }));
      term.start([AWL, "--mcp-config", file], { cwd: fx.project, env: { ...fx.env, BROWSER: `bun ${join(import.meta.dir, "../support/browser.ts")}` } });
      await term.waitFor(/\/help for commands/);
      for (let screen = ""; !/web\s+failed: HTTP 401/.test(screen); await Bun.sleep(200)) {
        term.type("/mcp");
        term.keys("Enter");
        screen = await term.waitFor(/connects one again/);
      }
      term.type("/mcp login web");
      term.keys("Enter");
      await term.waitFor(/Sign in to web in your browser/);
      await term.waitFor(/authorize\?/);
      for (let screen = ""; !/web\s+ready, 3 tools/.test(screen); await Bun.sleep(200)) {
        term.type("/mcp");
        term.keys("Enter");
        screen = await term.waitFor(/connects one again/);
      }
      await term.waitFor(/MCP server web: signed in/);
      term.type("/mcp logout web");
      term.keys("Enter");
      await term.waitFor(/Signed out of web/);
      expect(existsSync(join(fx.home, ".local/share/awl/mcp/oauth/web.json"))).toBe(false);
    } finally {
      http.kill();
    }
  });
});
