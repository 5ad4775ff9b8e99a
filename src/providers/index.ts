// Picks and configures a provider from the environment (the README's environment table).
// A provider that cannot be used is an AdvisedError: the fact, and a remedy
// that the command line and the REPL each word their own way.

import { UsageError, UserError } from "../errors";
import { AnthropicProvider } from "./anthropic";
import { clean } from "./api-errors";
import { OpenAIProvider, openaiApi } from "./openai";
import { AdvisedError, type Provider, type ProviderName } from "./provider";

export function createProvider(name: ProviderName, env: Record<string, string | undefined> = process.env): Provider {
  if (name === "anthropic") {
    const apiKey = env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new AdvisedError("ANTHROPIC_API_KEY is not set", { kind: "key", provider: name, variable: "ANTHROPIC_API_KEY", other: "openai" });
    checkBaseUrl("ANTHROPIC_BASE_URL", env.ANTHROPIC_BASE_URL, [apiKey]);
    return new AnthropicProvider({ apiKey, baseUrl: env.ANTHROPIC_BASE_URL, env });
  }
  if (name === "openai") {
    const apiKey = env.OPENAI_API_KEY || undefined;
    // Local OpenAI-compatible servers (Ollama, llama.cpp) need no key; api.openai.com does.
    if (!apiKey && !env.OPENAI_BASE_URL) {
      throw new AdvisedError("OPENAI_API_KEY is not set", { kind: "key", provider: name, variable: "OPENAI_API_KEY", orVariable: "OPENAI_BASE_URL", other: "anthropic" });
    }
    checkBaseUrl("OPENAI_BASE_URL", env.OPENAI_BASE_URL, apiKey ? [apiKey] : []);
    return new OpenAIProvider({ apiKey, baseUrl: env.OPENAI_BASE_URL, api: openaiApi(env), env });
  }
  throw new UserError(`Unknown provider "${name as string}": use anthropic or openai`);
}

/**
 * A base URL fetch cannot use is the person's configuration to fix: said at
 * start, in one line, exit 2, instead of "internal error: Invalid URL" at the
 * first request. `localhost:8080` parses as a URL of the scheme "localhost:",
 * so the scheme is checked, not only the parse.
 */
function checkBaseUrl(variable: string, value: string | undefined, secrets: string[]): void {
  if (!value) return;
  const shown = clean(value, secrets);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1];
  const noScheme = () => new UsageError(`${variable} '${shown}' has no http:// or https:// in front (e.g. http://${shown})`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw scheme ? new UsageError(`${variable} '${shown}' is not a valid URL: check the host and port`) : noScheme();
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw scheme ? new UsageError(`${variable} '${shown}' must use http:// or https://, not ${scheme}://`) : noScheme();
  }
}

export { AdvisedError, type Provider, type ProviderName, type Remedy, type StreamEvent, type StreamRequest } from "./provider";
