// MCP servers (docs/mcp.md): their configuration, connections and tools.

export { configuredServers, printWaitMs, type McpServers, type ServerStatus } from "./servers";
export { toolsFor } from "./tools";
