// Where a signed thinking block may go back to. A signature (Anthropic's
// thinking signature, OpenAI's encrypted reasoning) is valid only for the API
// and the account that issued it: sent anywhere else it is refused ("was not
// issued to this caller"), and that refusal would fail every later request of
// the session. So each signed block awl writes records its origin, and a
// request carries only the blocks whose origin is its own.

import type { ThinkingBlock, ThinkingOrigin } from "../conversation";
import type { WireApi } from "./provider";

/**
 * The first 12 hex digits of SHA-256 of the base URL (no trailing slash), a
 * newline, and the key: the same for every request to one account, different
 * for another key or server, and no use for recovering the key.
 */
export function fingerprint(baseUrl: string, apiKey: string | undefined): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(`${baseUrl.replace(/\/+$/, "")}\n${apiKey ?? ""}`);
  return hasher.digest("hex").slice(0, 12);
}

export function originOf(api: WireApi, baseUrl: string, apiKey: string | undefined): ThinkingOrigin {
  return { api, fingerprint: fingerprint(baseUrl, apiKey) };
}

/**
 * Whether `block` may be sent back to the API `origin` names. A signed block
 * with an origin goes back only to that same API and fingerprint. A block
 * from before origins were recorded follows `legacy` (Anthropic: any signed
 * block, as awl always did; the Responses API: none).
 */
export function replayable(block: ThinkingBlock, origin: ThinkingOrigin, legacy: boolean): boolean {
  if (!block.signature) return false;
  if (!block.origin) return legacy;
  return block.origin.api === origin.api && block.origin.fingerprint === origin.fingerprint;
}
