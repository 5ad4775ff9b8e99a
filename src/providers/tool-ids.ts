// Tool call ids cross providers: an id minted by one API (or by a compatible
// server: dots, colons, 60+ characters) may be refused by the other. Both APIs
// accept `^[a-zA-Z0-9_-]+$`; Anthropic up to 64 characters, OpenAI up to 40.
// The mapping is deterministic so a use and its result, converted separately
// and on every request, always get the same id.

export const ANTHROPIC_TOOL_ID_MAX = 64;
export const OPENAI_TOOL_ID_MAX = 40;

const VALID = /^[a-zA-Z0-9_-]+$/;

/** The id unchanged when the API accepts it, else a sanitised prefix plus a short hash of the original. */
export function normalizeToolId(id: string, maxLength: number): string {
  if (id.length > 0 && id.length <= maxLength && VALID.test(id)) return id;
  const hash = fnv1a(id);
  const prefix = id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, maxLength - hash.length - 1);
  return `${prefix}_${hash}`;
}

/** 32-bit FNV-1a as 8 hex digits: cheap, stable, and enough to keep distinct ids distinct in one conversation. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
