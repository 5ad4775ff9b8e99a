// The providers in the order awl tries them when nothing names one (no
// --provider, AWL_PROVIDER or model that says whose it is): the first whose
// API key is set, or, for a provider that can run without a key (a local
// OpenAI-compatible server), whose base URL is set. So `OPENAI_API_KEY` alone
// means OpenAI, without also having to say AWL_PROVIDER=openai.

import type { ProviderName } from "./provider";

interface ProviderRow {
  name: ProviderName;
  keyVariable: string;
  baseUrlVariable: string;
  /** Usable with no key once its base URL is set. */
  keyOptional: boolean;
}

export const PROVIDER_ORDER: readonly ProviderRow[] = [
  { name: "anthropic", keyVariable: "ANTHROPIC_API_KEY", baseUrlVariable: "ANTHROPIC_BASE_URL", keyOptional: false },
  { name: "openai", keyVariable: "OPENAI_API_KEY", baseUrlVariable: "OPENAI_BASE_URL", keyOptional: true },
];

/** The first provider the environment makes usable, or undefined when none is (the caller's default then says what to set). */
export function providerFromEnvironment(env: Record<string, string | undefined>): ProviderName | undefined {
  return PROVIDER_ORDER.find((row) => env[row.keyVariable] || (row.keyOptional && env[row.baseUrlVariable]))?.name;
}
