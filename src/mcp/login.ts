// `awl mcp login NAME`: the browser sign-in to an HTTP server that asks for
// OAuth. A one-request server on 127.0.0.1 receives the redirect with the
// code; the SDK registers awl as a client, makes the PKCE challenge and
// trades the code for tokens, which oauth.ts keeps. The URL is printed too,
// for a shell on another machine than the browser.

import type { HttpEntry } from "./config";
import { httpTransport, isUnauthorized } from "./connect";

export interface LoginOptions {
  /** Shows the URL and hands it to the browser. */
  open(url: URL): void;
  timeoutMs: number;
}

/** Signs in; resolves with the number of tools the server then lists, or throws an Error with the reason in one line. */
export async function login(name: string, entry: HttpEntry, options: LoginOptions): Promise<number> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  let received: (code: string) => void = () => {};
  let refused: (error: Error) => void = () => {};
  const code = new Promise<string>((resolve, reject) => ((received = resolve), (refused = reject)));
  code.catch(() => {});
  const callback = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response("not found", { status: 404 });
      const given = url.searchParams.get("code");
      if (given) received(given);
      else refused(new Error(`the server refused the sign-in: ${url.searchParams.get("error") ?? "no code"}`));
      return new Response(given ? "Signed in to the MCP server: you can close this page and go back to awl." : "The sign-in failed: see awl.", { headers: { "content-type": "text/plain" } });
    },
  });
  const timer = setTimeout(() => refused(new Error(`no sign-in arrived in ${options.timeoutMs / 1000} s`)), options.timeoutMs);
  try {
    const redirectUrl = `http://127.0.0.1:${callback.port}/callback`;
    const first = await httpTransport(name, entry, { redirectUrl, open: options.open });
    try {
      await new Client({ name: "awl", version: "login" }).connect(first);
      // Already signed in, and the tokens still good: nothing to do.
    } catch (error) {
      if (!(await isUnauthorized(error))) throw error;
      await first.finishAuth(await code);
    }
    const client = new Client({ name: "awl", version: "login" });
    await client.connect(await httpTransport(name, entry));
    const tools = client.getServerCapabilities()?.tools ? (await client.listTools()).tools.length : 0;
    await client.close();
    return tools;
  } finally {
    clearTimeout(timer);
    callback.stop(true);
  }
}
