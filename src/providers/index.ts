// Picks and configures a provider from the environment (the README's environment table).

import { UserError } from "../errors";
import { AnthropicProvider } from "./anthropic";
import { OpenAIProvider } from "./openai";
import type { Provider, ProviderName } from "./provider";

export function createProvider(name: ProviderName, env: Record<string, string | undefined> = process.env): Provider {
  if (name === "anthropic") {
    const apiKey = env.ANTHROPIC_API_KEY;
    if (!apiKey) {
      throw new UserError("ANTHROPIC_API_KEY is not set: export it, or choose another provider with --provider openai");
    }
    return new AnthropicProvider({ apiKey, baseUrl: env.ANTHROPIC_BASE_URL, env });
  }
  if (name === "openai") {
    const apiKey = env.OPENAI_API_KEY || undefined;
    // Local OpenAI-compatible servers (Ollama, llama.cpp) need no key; api.openai.com does.
    if (!apiKey && !env.OPENAI_BASE_URL) {
      throw new UserError(
        "OPENAI_API_KEY is not set: export it, set OPENAI_BASE_URL for a local server, or choose another provider with --provider anthropic",
      );
    }
    return new OpenAIProvider({ apiKey, baseUrl: env.OPENAI_BASE_URL, env });
  }
  throw new UserError(`Unknown provider "${name as string}": use anthropic or openai`);
}

export type { Provider, ProviderName, StreamEvent, StreamRequest } from "./provider";
