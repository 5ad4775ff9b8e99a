// Signing in to an HTTP server that asks for OAuth: the SDK does the protocol
// (discovery, dynamic client registration, the authorization code with PKCE,
// refreshing); this is where it keeps what it learns, one file per server,
// 0600 in awl's data directory ($XDG_DATA_HOME/awl/mcp/oauth/NAME.json).
// The file is read again each time the SDK asks for the tokens, so a session
// uses the refresh token another one saved last, and a save keeps the newest
// refresh token when the server sent none. A refresh happens under a lock
// (flock on NAME.json.lock, refreshFetch): the file is read again first, and
// when another awl refreshed meanwhile its tokens are taken instead of
// spending a refresh token the server has already rotated away.
//
// Only `awl mcp login NAME` signs in (interactive: the URL is printed and
// handed to $BROWSER); a run that needs a sign-in fails that server with the
// line that says so.

import { closeSync, existsSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { mkdirPrivate, writeFileAtomic } from "../private-file";
import { tryFlock } from "../session/log";
import { mcpDataDir, serverFileName } from "./names";

interface Stored {
  client?: OAuthClientInformationMixed;
  /** The redirect URL the client was registered with: a sign-in on another port registers again. */
  redirect?: string;
  tokens?: OAuthTokens;
  verifier?: string;
}

export function tokenFile(name: string, env: Record<string, string | undefined> = process.env): string {
  return join(mcpDataDir(env), "oauth", `${serverFileName(name)}.json`);
}

/** Whether the server has been signed in to (its tokens are stored). */
export function signedIn(name: string): boolean {
  return existsSync(tokenFile(name));
}

/** Signs out: the server's tokens and registration are forgotten. */
export function forget(name: string, env: Record<string, string | undefined> = process.env): void {
  rmSync(tokenFile(name, env), { force: true });
}

export const NEEDS_LOGIN = (name: string) => `needs a sign-in: run awl mcp login ${name}`;

export class FileAuthProvider implements OAuthClientProvider {
  readonly #file: string;

  /** `login`: where the authorization is sent (the URL is shown and opened); absent, a sign-in is refused with NEEDS_LOGIN. */
  constructor(
    readonly name: string,
    readonly redirectUrl: string,
    readonly login?: (url: URL) => void,
  ) {
    this.#file = tokenFile(name);
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "awl", redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.#read();
    return stored.redirect === this.redirectUrl || !this.login ? stored.client : undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#write({ client, redirect: this.redirectUrl });
  }

  tokens(): OAuthTokens | undefined {
    return this.#read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const kept = this.#read().tokens?.refresh_token;
    this.#write({ tokens: tokens.refresh_token || !kept ? tokens : { ...tokens, refresh_token: kept } });
  }

  redirectToAuthorization(url: URL): void {
    if (!this.login) throw new Error(NEEDS_LOGIN(this.name));
    this.login(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#write({ verifier });
  }

  codeVerifier(): string {
    const verifier = this.#read().verifier;
    if (!verifier) throw new Error("no sign-in is under way");
    return verifier;
  }

  #read(): Stored {
    try {
      return JSON.parse(readFileSync(this.#file, "utf8")) as Stored;
    } catch {
      return {};
    }
  }

  #write(change: Stored): void {
    mkdirPrivate(join(this.#file, ".."));
    writeFileAtomic(this.#file, `${JSON.stringify({ ...this.#read(), ...change })}\n`);
  }
}

/** How long a refresh waits for another awl's (a refresh is one request). */
const REFRESH_LOCK_MS = 30_000;

/**
 * The transport's fetch, with each refresh of `name`'s tokens made under its
 * lock: the stored refresh token read again first (another awl may have
 * spent the one this request carries, and saved the tokens it got), and the
 * answer saved before the lock is let go.
 */
export function refreshFetch(name: string): typeof fetch {
  const file = tokenFile(name);
  const store = new FileAuthProvider(name, "http://127.0.0.1/callback");
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const form = typeof init?.body === "string" || init?.body instanceof URLSearchParams ? new URLSearchParams(init.body) : undefined;
    if (form?.get("grant_type") !== "refresh_token") return fetch(input, init);
    mkdirPrivate(join(file, ".."));
    const fd = openSync(`${file}.lock`, "a", 0o600);
    try {
      for (const deadline = Date.now() + REFRESH_LOCK_MS; tryFlock(fd) === "busy" && Date.now() < deadline; ) await Bun.sleep(20);
      const stored = store.tokens();
      if (stored?.refresh_token && stored.refresh_token !== form.get("refresh_token")) return Response.json(stored); // another awl refreshed first
      const response = await fetch(input, init);
      if (!response.ok) return response;
      const tokens = (await response.json()) as OAuthTokens;
      store.saveTokens(tokens);
      return Response.json(tokens);
    } finally {
      closeSync(fd); // lets the lock go
    }
  }) as typeof fetch;
}
