// A real MCP server for tests, on the SDK's server side: `bun mcp-server.ts`
// speaks stdio; with MCP_TEST_HTTP_PORT=0 it serves streamable HTTP instead
// and prints its URL on stdout. What it does is set by variables:
//   MCP_TEST_HANG=1          never answers initialize (reads nothing, stays alive)
//   MCP_TEST_DELAY_MS=N      answers only after N ms
//   MCP_TEST_FAIL="line"     writes the line to stderr and exits 1 at once
//   MCP_TEST_TOOLS=N         N more tools, tool_0 … (for the find/call path)
//   MCP_TEST_ENV_FILE=path   writes its environment there, as JSON, when it starts
//   MCP_TEST_PID_FILE=path   writes its pid there
//   MCP_TEST_OAUTH=1         (HTTP) asks for OAuth as the protocol says: discovery, dynamic
//                            registration, the code with PKCE (S256 checked), refresh tokens
//                            that rotate (one used twice is refused); POST /expire ends every
//                            access token, GET /stats says how many sign-ins and refreshes there were;
//                            MCP_TEST_OAUTH_REFRESH_MS=N answers a refresh after N ms
// Its tools: echo {text} (read-only hint), add {a, b}, wait_for {path} (reports
// progress until the file exists), and the N more.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const env = process.env;
if (env.MCP_TEST_ENV_FILE) await Bun.write(env.MCP_TEST_ENV_FILE, JSON.stringify(env));
if (env.MCP_TEST_PID_FILE) await Bun.write(env.MCP_TEST_PID_FILE, String(process.pid));
if (env.MCP_TEST_FAIL) {
  process.stderr.write(`${env.MCP_TEST_FAIL}\n`);
  process.exit(1);
}
if (env.MCP_TEST_HANG) {
  setInterval(() => {}, 1 << 30);
} else {
  if (env.MCP_TEST_DELAY_MS) await Bun.sleep(Number(env.MCP_TEST_DELAY_MS));
  const extra = Number(env.MCP_TEST_TOOLS ?? 0);
  const tools = [
    { name: "echo", description: "Says the text back.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, annotations: { readOnlyHint: true } },
    { name: "add", description: "Adds two numbers.", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
    { name: "wait_for", description: "Reports progress until a file exists.", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
    ...Array.from({ length: extra }, (_, i) => ({ name: `tool_${i}`, description: `Test tool number ${i}, about topic${i}.`, inputSchema: { type: "object", properties: {} } })),
  ];
  const make = () => {
    const server = new Server({ name: "awl-test", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      if (request.params.name === "wait_for") {
        const token = request.params._meta?.progressToken;
        for (let step = 1; !(await Bun.file(String(args.path)).exists()); step++) {
          if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: step, message: `waiting for ${String(args.path).split("/").pop()}` } });
          await Bun.sleep(100);
        }
        return { content: [{ type: "text", text: "the file is there" }] };
      }
      if (request.params.name === "echo") return { content: [{ type: "text", text: `echo: ${String(args.text)}` }] };
      if (request.params.name === "add") return { content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] };
      if (tools.some((t) => t.name === request.params.name)) return { content: [{ type: "text", text: `${request.params.name} ran` }] };
      return { content: [{ type: "text", text: `no tool ${request.params.name}` }], isError: true };
    });
    return server;
  };
  if (env.MCP_TEST_HTTP_PORT !== undefined) {
    const oauth = env.MCP_TEST_OAUTH ? authorizationServer() : undefined;
    const http = Bun.serve({
      port: Number(env.MCP_TEST_HTTP_PORT),
      hostname: "127.0.0.1",
      async fetch(request) {
        if (env.MCP_TEST_HTTP_STATUS) return new Response("no", { status: Number(env.MCP_TEST_HTTP_STATUS) });
        if (oauth) {
          const answer = await oauth(request, new URL(request.url));
          if (answer) return answer;
        }
        // Stateless: a server and transport per request, as the SDK's examples do.
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await make().connect(transport);
        return transport.handleRequest(request);
      },
    });
    console.log(`http://127.0.0.1:${http.port}/mcp`);
  } else {
    await make().connect(new StdioServerTransport());
  }
}

/** The OAuth side of the HTTP server: its answer to a request, or undefined when the request may go on to MCP. */
function authorizationServer(): (request: Request, url: URL) => Promise<Response | undefined> {
  const codes = new Map<string, string>(); // code -> its PKCE challenge
  const access = new Set<string>();
  const refresh = new Set<string>();
  const stats = { signIns: 0, refreshes: 0, refused: 0 };
  let n = 0;
  const issue = () => {
    const tokens = { access_token: `a${++n}`, token_type: "Bearer", expires_in: 3600, refresh_token: `r${n}` };
    access.add(tokens.access_token);
    refresh.add(tokens.refresh_token);
    return Response.json(tokens);
  };
  const challengeOf = (verifier: string) => new Bun.CryptoHasher("sha256").update(verifier).digest("base64url");
  return async (request, url) => {
    const base = url.origin;
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) return Response.json({ resource: `${base}/mcp`, authorization_servers: [base] });
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return Response.json({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, registration_endpoint: `${base}/register`, response_types_supported: ["code"], grant_types_supported: ["authorization_code", "refresh_token"], code_challenge_methods_supported: ["S256"], token_endpoint_auth_methods_supported: ["none"] });
    }
    if (url.pathname === "/register") return Response.json({ ...((await request.json()) as object), client_id: "awl-test-client" }, { status: 201 });
    if (url.pathname === "/authorize") {
      const code = `c${++n}`;
      codes.set(code, url.searchParams.get("code_challenge") ?? "");
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return Response.redirect(back.href, 302);
    }
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await request.text());
      if (form.get("grant_type") === "authorization_code") {
        const challenge = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!challenge || challenge !== challengeOf(form.get("code_verifier") ?? "")) return Response.json({ error: "invalid_grant" }, { status: 400 });
        stats.signIns++;
        return issue();
      }
      await Bun.sleep(Number(env.MCP_TEST_OAUTH_REFRESH_MS ?? 0)); // a slow refresh: two awls at once are both in flight
      const old = form.get("refresh_token") ?? "";
      if (!refresh.delete(old)) {
        stats.refused++;
        return Response.json({ error: "invalid_grant", error_description: "refresh token already used" }, { status: 400 });
      }
      stats.refreshes++;
      return issue();
    }
    if (url.pathname === "/expire") {
      access.clear();
      return new Response("expired");
    }
    if (url.pathname === "/stats") return Response.json(stats);
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (access.has(token)) return undefined;
    return new Response("unauthorized", { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` } });
  };
}
