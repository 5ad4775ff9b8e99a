// A real MCP server for tests, on the SDK's server side: `bun mcp-server.ts`
// speaks stdio; with MCP_TEST_HTTP_PORT=0 it serves streamable HTTP instead
// and prints its URL on stdout. What it does is set by variables:
//   MCP_TEST_HANG=1          never answers initialize (reads nothing, stays alive)
//   MCP_TEST_DELAY_MS=N      answers only after N ms
//   MCP_TEST_FAIL="line"     writes the line to stderr and exits 1 at once
//   MCP_TEST_TOOLS=N         N more tools, tool_0 … (for the find/call path)
//   MCP_TEST_ENV_FILE=path   writes its environment there, as JSON, when it starts
//   MCP_TEST_PID_FILE=path   writes its pid there
// Its tools: echo {text} (read-only hint), add {a, b}, and the N more.
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
    ...Array.from({ length: extra }, (_, i) => ({ name: `tool_${i}`, description: `Test tool number ${i}, about topic${i}.`, inputSchema: { type: "object", properties: {} } })),
  ];
  const make = () => {
    const server = new Server({ name: "awl-test", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      if (request.params.name === "echo") return { content: [{ type: "text", text: `echo: ${String(args.text)}` }] };
      if (request.params.name === "add") return { content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] };
      if (tools.some((t) => t.name === request.params.name)) return { content: [{ type: "text", text: `${request.params.name} ran` }] };
      return { content: [{ type: "text", text: `no tool ${request.params.name}` }], isError: true };
    });
    return server;
  };
  if (env.MCP_TEST_HTTP_PORT !== undefined) {
    const http = Bun.serve({
      port: Number(env.MCP_TEST_HTTP_PORT),
      hostname: "127.0.0.1",
      async fetch(request) {
        if (env.MCP_TEST_HTTP_STATUS) return new Response("no", { status: Number(env.MCP_TEST_HTTP_STATUS) });
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
