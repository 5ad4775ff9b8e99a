// Standard input for -p: read when it is a pipe, a regular file or a socket
// that starts to speak (never a terminal, nor /dev/null), whole, as bytes
// first, so that a character split across two reads arrives intact, and
// decoded only at the end. What cannot be sent is refused before any request:
// more than every provider's request can hold, or not UTF-8.

import { fstatSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { UsageError } from "../errors";
import { smallestRequestLimit } from "../providers/registry";

/** The most stdin awl reads: what every provider's request can hold. */
export const MAX_STDIN_BYTES = smallestRequestLimit();
/**
 * How long an open pipe may stay silent before awl says what it is waiting
 * for, and how long a socket has to send its first byte (or end) to be read.
 */
const SILENCE_MS = 3000;

/**
 * What stdin is, for -p: a pipe or a regular file (`cmd | awl -p`, `awl -p <
 * file`), read to its end; a socket, what a program started by Node or Bun
 * gets by default, often left open with nothing ever written, read only when
 * it speaks within 3 s; or nothing to read (a terminal, /dev/null, closed).
 */
export function stdinKind(): "stream" | "socket" | undefined {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile() ? "stream" : stat.isSocket() ? "socket" : undefined;
  } catch {
    return undefined; // closed
  }
}

/**
 * All of stdin as text. `onSilence` is called once if it gives nothing for
 * 3 s: a pipe is still waited for (a slow producer is not an error); with
 * `socket`, awl waits no longer and returns undefined when neither a byte nor
 * the end came by then.
 */
export async function readStdin(onSilence: () => void, o: { socket?: boolean } = {}): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let said = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let silent: (() => void) | undefined;
  const gaveUp = new Promise<"silent">((resolve) => (silent = () => resolve("silent")));
  const quiet = () => {
    clearTimeout(timer);
    if (!said) timer = setTimeout(() => ((said = true), o.socket && bytes === 0 ? silent!() : onSilence()), SILENCE_MS);
  };
  quiet();
  const reader = Bun.stdin.stream().getReader();
  try {
    for (let first = true; ; first = false) {
      const next = first ? await Promise.race([reader.read(), gaveUp]) : await reader.read();
      if (next === "silent") {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      if (next.done) break;
      bytes += next.value.byteLength;
      if (bytes > MAX_STDIN_BYTES) throw new UsageError(`standard input is over ${MAX_STDIN_BYTES >> 20} MiB: nothing was sent (give the model a file's path to read instead)`);
      chunks.push(next.value);
      quiet();
    }
  } finally {
    clearTimeout(timer);
  }
  const all = Buffer.concat(chunks, bytes);
  if (!isUtf8(all)) throw new UsageError(`standard input is not UTF-8 text (byte ${firstInvalidByte(all)} is not): nothing was sent`);
  return all.toString("utf8");
}

/**
 * The offset of the first byte that does not belong to a valid UTF-8
 * sequence (overlong forms, surrogates and code points past U+10FFFF are not
 * valid); bytes.length when all are.
 */
export function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // [length, lowest and highest second byte] of each lead byte's sequence.
    const [n, lo, hi] =
      b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf]
      : b === 0xe0 ? [3, 0xa0, 0xbf]
      : b === 0xed ? [3, 0x80, 0x9f]
      : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf]
      : b === 0xf0 ? [4, 0x90, 0xbf]
      : b === 0xf4 ? [4, 0x80, 0x8f]
      : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf]
      : [0, 0, 0];
    if (n === 0) return i;
    const second = bytes[i + 1];
    if (second === undefined || second < lo || second > hi) return i;
    for (let k = 2; k < n; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += n;
  }
  return bytes.length;
}
