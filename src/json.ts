/** True when `value` is a JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `text` is one complete JSON value (a torn session line, a cut-off tool input are not). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The size in UTF-8 bytes of `JSON.stringify(value)`, counted without making
 * that string (json-body.ts sets Content-Length from it before serializing
 * a 100 MB history). Exact for what JSON.parse and plain object literals
 * hold; a value with toJSON is measured by stringifying it.
 */
export function jsonByteLength(value: unknown): number {
  switch (typeof value) {
    case "string":
      return stringBytes(value);
    case "number":
      return Number.isFinite(value) ? String(value).length : 4; // NaN and Infinity become null
    case "boolean":
      return value ? 4 : 5;
    case "object": {
      if (value === null) return 4;
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return Buffer.byteLength(JSON.stringify(value) ?? "");
      if (Array.isArray(value)) {
        let size = 2 + Math.max(0, value.length - 1);
        for (const item of value) size += skipped(item) ? 4 : jsonByteLength(item); // holes become null
        return size;
      }
      let size = 2;
      let fields = 0;
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (skipped(item)) continue; // an undefined field is left out
        size += (fields++ ? 1 : 0) + stringBytes(key) + 1 + jsonByteLength(item);
      }
      return size;
    }
    default:
      return Buffer.byteLength(JSON.stringify(value) ?? "");
  }
}

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** A string's JSON form: quotes, escapes (\n is 2 bytes, \u0001 is 6), and UTF-8. */
function stringBytes(text: string): number {
  let size = Buffer.byteLength(text) + 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) size += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 1 : 5;
    else if (c === 0x22 || c === 0x5c) size += 1;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A pair is one 4-byte character, already counted; a lone half is written as \udxxx (6 bytes, counted as 3).
      if (c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
      else size += 3;
    }
  }
  return size;
}
