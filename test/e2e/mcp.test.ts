// MCP servers through the compiled binary, with a real server on the SDK's
// server side (test/support/mcp-server.ts) and the test server for the model.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sessionFiles, useE2eFixture } from "./awl";
import { readLog } from "../support/session-log";

const SERVER = join(import.meta.dir, "../support/mcp-server.ts");
const fx = useE2eFixture();

/** Writes an MCP configuration at `file`: name -> env of one test server (or a whole entry). */
async function config(file: string, servers: Record<string, Record<string, string> | object>): Promise<string> {
  const entries = Object.fromEntries(Object.entries(servers).map(([name, value]) => [name, "command" in value || "type" in value ? value : { command: "bun", args: [SERVER], env: value }]));
  await Bun.write(file, JSON.stringify({ mcpServers: entries }));
  return file;
}

const toolNames = (i: number) => ((fx.server.requests[i]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

test("-p: a server's tools are ordinary tools when they arrive in time; a call reaches the server and its answer the model", async () => {
  const file = await config(join(fx.root, "mcp.json"), { files: {} });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp__files__echo", input: { text: "hi there" } }] }, { blocks: [{ type: "text", text: "done" }] });
  const run = await fx.run(["-p", "use it", "--mcp-config", file], { env: { AWL_MCP_WAIT: "30" } });
  expect(run.stderr).not.toContain("MCP server");
  expect(run.code).toBe(0);
  expect(toolNames(0)).toEqual(["bash", "read", "write", "edit", "task", "mcp__files__echo", "mcp__files__add", "mcp__files__wait_for"]);
  expect(toolNames(1)).toEqual(toolNames(0));
  expect(JSON.stringify(fx.server.requests[1]!.body)).toContain("echo: hi there");
  // The session keeps which server and tool answered, by their own names; the model is never sent them.
  const results = readLog(sessionFiles(fx.sessions)[0]!).flatMap((e) => (e.type === "message" ? e.message.content : [])).filter((b: { type: string }) => b.type === "toolResult");
  expect(results).toMatchObject([{ content: "echo: hi there", mcp: { server: "files", tool: "echo" } }]);
  expect(JSON.stringify(fx.server.requests[1]!.body)).not.toContain('"mcp"');
});

test("-p: a dead command, a failing server and one that never answers are each named once with the reason; the quick one still works", async () => {
  const file = await config(join(fx.root, "mcp.json"), {
    quick: {},
    dead: { command: "no-such-mcp-server-here" },
    failing: { MCP_TEST_FAIL: "cannot open database \u001b[31mred\u001b[0m" },
    silent: { MCP_TEST_HANG: "1", MCP_TEST_PID_FILE: join(fx.root, "silent.pid") },
  });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp_call", input: { server: "quick", tool: "add", arguments: { a: 2, b: 3 } } }] }, { blocks: [{ type: "text", text: "five" }] });
  const run = await fx.run(["-p", "add", "--mcp-config", file], { env: { AWL_MCP_WAIT: "30", AWL_MCP_TIMEOUT: "3" } });
  expect(run.code).toBe(0);
  const lines = run.stderr.split("\n").filter((l) => l.includes("MCP server"));
  expect(lines).toHaveLength(3);
  expect(lines.find((l) => l.includes("dead"))).toContain("command not found: no-such-mcp-server-here");
  expect(lines.find((l) => l.includes("failing"))).toContain("cannot open database");
  expect(run.stderr).not.toContain("\u001b[31m");
  // Its stderr itself went to its log, not to the screen.
  expect(readFileSync(join(fx.home, ".local/share/awl/mcp/failing.log"), "utf8")).toContain("cannot open database");
  expect(lines.find((l) => l.includes("silent"))).toContain("did not answer in 3 s");
  // Not all of them answered: the two fixed tools, and the quick one's call went through them.
  expect(toolNames(0)).toEqual(["bash", "read", "write", "edit", "task", "mcp_find", "mcp_call"]);
  expect(JSON.stringify(fx.server.requests[1]!.body)).toContain('"5"');
  // Nothing it started is left running.
  const pid = Number(readFileSync(join(fx.root, "silent.pid"), "utf8"));
  expect(existsSync(`/proc/${pid}`)).toBe(false);
});

test("a server's environment is a minimal base and its own env; a project's .mcp.json is listed, never started, never given a key; an unset ${VAR} is one line", async () => {
  const envFile = join(fx.root, "server-env.json");
  const projectEnv = join(fx.root, "project-env.json");
  await config(join(fx.project, ".mcp.json"), { repo: { MCP_TEST_ENV_FILE: projectEnv }, keyed: { KEY: "${ANTHROPIC_API_KEY}" } });
  const file = await config(join(fx.root, "mcp.json"), { probe: { MCP_TEST_ENV_FILE: envFile, GIVEN: "${MY_SETTING:-fallback}" }, needs: { command: "bun", args: [SERVER, "${NOT_SET_ANYWHERE}"] } });
  const listed = await fx.run(["mcp", "list"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain("repo  (.mcp.json)  bun");
  expect(listed.stdout).toContain("not started: not trusted yet");
  expect(listed.stdout).toContain("keyed  (.mcp.json)  error: ${ANTHROPIC_API_KEY} is a key or secret, never given to a project's servers");
  expect(listed.stdout).not.toContain(fx.server.anthropicKey);

  fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
  const run = await fx.run(["-p", "hi", "--mcp-config", file], { env: { AWL_MCP_WAIT: "30", SOME_OTHER: "x", LANG: "C.UTF-8" } });
  expect(run.code).toBe(0);
  const seen = JSON.parse(readFileSync(envFile, "utf8")) as Record<string, string>;
  expect(seen.ANTHROPIC_API_KEY).toBeUndefined();
  expect(seen.OPENAI_API_KEY).toBeUndefined();
  expect(seen.SOME_OTHER).toBeUndefined();
  expect(seen.GIVEN).toBe("fallback");
  expect(seen.LANG).toBe("C.UTF-8");
  expect(seen.HOME).toBe(fx.home);
  // The project's servers did not run, which -p says (the project is not trusted); the unset variable is one line.
  expect(existsSync(projectEnv)).toBe(false);
  expect(run.stderr).toContain("this project is not trusted: its 2 .mcp.json servers did not run");
  expect(run.stderr).toContain("MCP server needs: ${NOT_SET_ANYWHERE} is not set");
  expect(run.stderr.match(/MCP server/g)).toHaveLength(1);
  expect(run.stderr).not.toContain(fx.server.anthropicKey);
  // A --mcp-config file that is not there is the person's mistake: one line, and nothing is sent.
  const missing = await fx.run(["-p", "hi", "--mcp-config", join(fx.root, "nope.json")]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toEndWith(`\nawl: cannot read ${join(fx.root, "nope.json")}: ENOENT\n`);
  expect(fx.server.requests).toHaveLength(1);
});

test("awl mcp add, list and remove change the person's own file", async () => {
  const env = { XDG_CONFIG_HOME: join(fx.root, "config") };
  expect((await fx.run(["mcp", "add", "-e", "TOKEN=abc", "local", "bun", SERVER, "--flag"], { env })).code).toBe(0);
  expect((await fx.run(["mcp", "add", "-H", "Authorization: Bearer x", "remote", "https://example.com/mcp"], { env })).code).toBe(0);
  const file = join(fx.root, "config/awl/mcp.json");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
    mcpServers: { local: { command: "bun", args: [SERVER, "--flag"], env: { TOKEN: "abc" } }, remote: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } } },
  });
  const listed = await fx.run(["mcp", "list"], { env });
  expect(listed.stdout).toContain("local");
  expect(listed.stdout).toContain("http https://example.com/mcp");
  expect((await fx.run(["mcp", "remove", "local"], { env })).code).toBe(0);
  const gone = await fx.run(["mcp", "remove", "local"], { env });
  expect(gone.code).toBe(1);
  expect(gone.stderr).toBe(`awl: no MCP server named local in ${file}\n`);
  expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers)).toEqual(["remote"]);
});

test("a streamable HTTP server is reached by its URL with its headers; one that answers 404 is named with the status", async () => {
  const http = Bun.spawn(["bun", SERVER], { env: { ...process.env, MCP_TEST_HTTP_PORT: "0" }, stdout: "pipe", stderr: "inherit" });
  const broken = Bun.spawn(["bun", SERVER], { env: { ...process.env, MCP_TEST_HTTP_PORT: "0", MCP_TEST_HTTP_STATUS: "404" }, stdout: "pipe", stderr: "inherit" });
  try {
    const firstLine = async (p: typeof http) => new TextDecoder().decode((await p.stdout.getReader().read()).value).trim();
    const file = await config(join(fx.root, "mcp.json"), { web: { type: "http", url: await firstLine(http), headers: { "X-Test": "1" } }, gone: { type: "http", url: await firstLine(broken) } });
    fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp_call", input: { server: "web", tool: "echo", arguments: { text: "over http" } } }] }, { blocks: [{ type: "text", text: "ok" }] });
    const run = await fx.run(["-p", "call", "--mcp-config", file], { env: { AWL_MCP_WAIT: "30" } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("MCP server gone:");
    expect(run.stderr).toContain("404");
    expect(JSON.stringify(fx.server.requests[1]!.body)).toContain("echo: over http");
  } finally {
    http.kill();
    broken.kill();
  }
});

test("read-only refuses a server's tool, whatever the server says of it", async () => {
  const file = await config(join(fx.root, "mcp.json"), { files: {} });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp__files__echo", input: { text: "hi" } }] }, { blocks: [{ type: "text", text: "ok" }] });
  const run = await fx.run(["-p", "use it", "--approve", "read-only", "--mcp-config", file], { env: { AWL_MCP_WAIT: "30" } });
  expect(run.code).toBe(0);
  const sent = JSON.stringify(fx.server.requests[1]!.body);
  expect(sent).toContain("read-only mode, which refuses MCP servers' tools");
  expect(sent).not.toContain("echo: hi");
});

test("-p with AWL_MCP_WAIT=0 sends its request at once with the two fixed tools; a call to a server still connecting waits for it", async () => {
  const file = await config(join(fx.root, "mcp.json"), { late: { MCP_TEST_DELAY_MS: "1000" } });
  fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp_call", input: { server: "late", tool: "echo", arguments: { text: "waited" } } }] }, { blocks: [{ type: "text", text: "ok" }] });
  const run = await fx.run(["-p", "go", "--mcp-config", file], { env: { AWL_MCP_WAIT: "0" } });
  expect(run.code).toBe(0);
  expect(toolNames(0)).toEqual(["bash", "read", "write", "edit", "task", "mcp_find", "mcp_call"]);
  expect(JSON.stringify(fx.server.requests[1]!.body)).toContain("echo: waited");
});

test("200 tools: the model is sent two small tools, found and called by name, and the session resumes with the server gone", async () => {
  const file = await config(join(fx.root, "mcp.json"), { many: { MCP_TEST_TOOLS: "198" } });
  fx.server.reply(
    { blocks: [{ type: "toolUse", name: "mcp_find", input: { words: "topic123" } }] },
    { blocks: [{ type: "toolUse", name: "mcp_call", input: { server: "many", tool: "tool_123", arguments: {} } }] },
    { blocks: [{ type: "text", text: "done" }] },
    { blocks: [{ type: "text", text: "without servers" }] },
    { blocks: [{ type: "text", text: "plain" }] },
  );
  const run = await fx.run(["-p", "find it", "--mcp-config", file], { env: { AWL_MCP_WAIT: "30" } });
  expect(run.code).toBe(0);
  expect(JSON.stringify(fx.server.requests[1]!.body)).toContain('\\"tool\\":\\"tool_123\\"');
  expect(JSON.stringify(fx.server.requests[2]!.body)).toContain("tool_123 ran");
  // The session goes on with every server gone: its calls are ordinary tool calls in the log.
  const resumed = await fx.run(["-p", "again", "--resume"]);
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toBe("without servers\n");
  // What the servers add to the first request, beside a session with none: far under 2,000 tokens (bytes / 4).
  const fresh = await fx.run(["-p", "plain"]);
  expect(fresh.code).toBe(0);
  const size = (i: number) => { const body = fx.server.requests[i]!.body as { tools: unknown; system: unknown }; return JSON.stringify([body.tools, body.system]).length; };
  expect((size(0) - size(4)) / 4).toBeLessThan(2000);
});

test("OAuth: awl mcp login signs in once through the browser; after the access token expires later runs refresh it without another sign-in", async () => {
  const http = Bun.spawn(["bun", SERVER], { env: { ...process.env, MCP_TEST_HTTP_PORT: "0", MCP_TEST_OAUTH: "1", MCP_TEST_OAUTH_REFRESH_MS: "300" }, stdout: "pipe", stderr: "inherit" });
  try {
    const url = new TextDecoder().decode((await http.stdout.getReader().read()).value).trim();
    const origin = new URL(url).origin;
    const env = { XDG_CONFIG_HOME: join(fx.root, "config"), AWL_MCP_WAIT: "30", BROWSER: `bun ${join(import.meta.dir, "../support/browser.ts")}` };
    expect((await fx.run(["mcp", "add", "web", url], { env })).code).toBe(0);
    // Before the sign-in, -p names the server and the command, and never signs in itself.
    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] });
    const before = await fx.run(["-p", "hi"], { env });
    expect(before.stderr).toContain("awl mcp login web");
    const login = await fx.run(["mcp", "login", "web"], { env });
    expect(login.stderr).toContain(`${origin}/authorize?`);
    expect(login.stdout).toBe("Signed in to web (3 tools).\n");
    expect(login.code).toBe(0);
    const file = join(fx.home, ".local/share/awl/mcp/oauth/web.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The access token expired: the next run refreshes it and calls the tool, no sign-in asked.
    await fetch(`${origin}/expire`, { method: "POST" });
    fx.server.reply({ blocks: [{ type: "toolUse", name: "mcp__web__echo", input: { text: "later" } }] }, { blocks: [{ type: "text", text: "ok" }] });
    const later = await fx.run(["-p", "call"], { env });
    expect(later.code).toBe(0);
    expect(later.stderr).not.toContain("MCP server");
    expect(JSON.stringify(fx.server.requests.at(-1)!.body)).toContain("echo: later");
    // Two at the same time, the token expired: one refreshes, the other takes what it saved.
    await fetch(`${origin}/expire`, { method: "POST" });
    fx.server.reply({ blocks: [{ type: "text", text: "one" }] }, { blocks: [{ type: "text", text: "two" }] });
    const both = await Promise.all([fx.run(["-p", "a"], { env }), fx.run(["-p", "b"], { env })]);
    for (const run of both) expect(run.stderr).not.toContain("MCP server");
    // Never a rotated token spent twice (the server would refuse it and ask for a sign-in). One awl may
    // still refresh after the other saved, when its 401 came before that save: a refresh too many, not a failure.
    const stats = (await (await fetch(`${origin}/stats`)).json()) as { signIns: number; refreshes: number; refused: number };
    expect(stats).toMatchObject({ signIns: 1, refused: 0 });
    expect(stats.refreshes).toBeGreaterThanOrEqual(2);
  } finally {
    http.kill();
  }
});
