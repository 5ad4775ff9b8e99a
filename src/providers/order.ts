// The providers in the order awl tries them when nothing names one (no
// --provider, AWL_PROVIDER or model that says whose it is): the table's order
// (registry.ts), the first whose API key is set, or, for a provider that can
// run without a key (a local compatible server), whose base URL is set. So a
// provider's key alone means that provider, without also naming it in
// AWL_PROVIDER.

import type { ProviderName } from "./provider";
import { connectionOf, providerRows } from "./registry";

/** The first provider the environment makes usable, or undefined when none is (the caller's default then says what to set). */
export function providerFromEnvironment(env: Record<string, string | undefined>): ProviderName | undefined {
  return providerRows().find((row) => connectionOf(row, env))?.name;
}

/** The provider a new session uses when nothing names one and none is usable: the first, whose remedy then says what to set. */
export function firstProvider(): ProviderName {
  return providerRows()[0]!.name;
}
