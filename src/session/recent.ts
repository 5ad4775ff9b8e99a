// The session `awl --resume` continues: the one of this directory whose LAST
// entry is newest (not the newest file name). Per file this reads the header
// and the start of the last line, not the whole file: a 100 MB session used
// to be read whole (0.5 s) just to learn one timestamp.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { encodeCwd, sessionRoot } from "./paths";
import { createdFromName, entryHead, parseQuiet, readHeader, sessionFiles } from "./listing";
import { MAX_LINE_BYTES } from "./replay";

type Env = Record<string, string | undefined>;
const TAIL_CHUNK = 1 << 16;

/** The path of the most recently active session of `cwd`, or undefined. Empty files (a crash before the header) are passed over. */
export function mostRecentSession(cwd: string, env: Env = process.env): string | undefined {
  const dir = join(sessionRoot(env), encodeCwd(cwd));
  let best: { path: string; when: string } | undefined;
  for (const name of sessionFiles(dir)) {
    const path = join(dir, name);
    const header = readHeader(path);
    let when: string | undefined;
    if (header) {
      // Folders shared by look-alike cwds are told apart by the header.
      if (header.cwd !== cwd) continue;
      when = lastTimestamp(path) ?? header.timestamp;
    } else {
      // A SIGKILL between creating a file and writing its header leaves it
      // empty: nothing to resume, and as the newest it would make every
      // --resume here fail. Any other unreadable file competes by its name's
      // date, so that open can say what is wrong with it.
      if (isEmpty(path)) continue;
      when = createdFromName(path);
    }
    if (when === undefined) continue;
    if (!best || when >= best.when) best = { path, when };
  }
  return best?.path;
}

/** The timestamp of the file's last entry, read from the start of its last line. */
function lastTimestamp(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    const start = lastLineStart(fd, size);
    if (start === undefined || start === 0) return undefined; // only the header
    const head = Buffer.alloc(512);
    const read = readSync(fd, head, 0, head.length, start);
    const fromHead = entryHead(head, 0, read)?.[1];
    if (fromHead !== undefined) return fromHead;
    // Not this serializer's shape: read the line itself (bounded) and parse it.
    const line = Buffer.alloc(Math.min(MAX_LINE_BYTES, size - start));
    const entry = parseQuiet(line.toString("utf8", 0, readSync(fd, line, 0, line.length, start)).split("\n")[0]!);
    return typeof entry?.timestamp === "string" ? entry.timestamp : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Offset of the last line holding anything but whitespace or NUL bytes (what a
 * power cut leaves), reading backwards in chunks; undefined past MAX_LINE_BYTES.
 */
function lastLineStart(fd: number, size: number): number | undefined {
  const chunk = Buffer.allocUnsafe(TAIL_CHUNK);
  let contentSeen = false;
  let end = size;
  while (end > 0) {
    if (size - end > MAX_LINE_BYTES) return undefined;
    const from = Math.max(0, end - TAIL_CHUNK);
    const read = readSync(fd, chunk, 0, end - from, from);
    for (let i = read - 1; i >= 0; i--) {
      const byte = chunk[i]!;
      if (byte === 0x0a) {
        if (contentSeen) return from + i + 1;
      } else if (byte !== 0x00 && byte !== 0x20 && byte !== 0x0d && byte !== 0x09) {
        contentSeen = true;
      }
    }
    end = from;
  }
  return contentSeen ? 0 : undefined;
}

function isEmpty(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return false; // gone or unreadable: open reports it
  }
}
