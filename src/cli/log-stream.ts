// The session log, copied to stdout as it is written (`awl -p --json`): the
// header line, then each line the moment the SessionManager has made it
// durable. The copy is read back from the file itself, never from a buffer of
// its own, so a slow reader costs no memory and cannot lose a byte, and the
// log's writes never wait for stdout: the manager only says where each line
// landed, and this side catches up as fast as the reader takes it.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { SessionManager } from "../session";
import { readLineAt } from "../session/log";
import { stopForClosedOutput } from "./stop";

/** How much is read from the file and handed to stdout at a time. */
const CHUNK = 1 << 16;

type Range = { from: number; to: number };

export class LogStream {
  #path: string | undefined;
  #fd: number | undefined;
  /** What is still to copy, in file order: contiguous after the header. */
  readonly #ranges: Range[] = [];
  #pumping = false;
  #idle: (() => void)[] = [];

  constructor() {
    // The reader is gone (`| head -1`): the run ends as SIGPIPE would end it.
    process.stdout.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code === "EPIPE") stopForClosedOutput();
    });
  }

  /** Streams this session's log: its header now when the file exists (a resumed session), and every line written from now on. */
  follow(session: SessionManager): void {
    this.#path = session.sessionFile;
    if (session.onDisk) {
      const fd = this.#open();
      const header = readLineAt(fd, 0, fstatSync(fd).size);
      if (header) this.#add(0, header.length + 1);
    }
    session.onLineWritten((start, end) => this.#add(start, end));
  }

  /** Copies what is left, then writes `line`, and resolves once stdout has taken it all. */
  async finish(line: string): Promise<void> {
    await this.#drained();
    await write(`${line}\n`);
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #add(from: number, to: number): void {
    const last = this.#ranges.at(-1);
    if (last && last.to === from) last.to = to;
    else this.#ranges.push({ from, to });
    if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#ranges.length > 0) {
        const range = this.#ranges[0]!;
        const buffer = Buffer.allocUnsafe(Math.min(CHUNK, range.to - range.from));
        const read = readSync(this.#open(), buffer, 0, buffer.length, range.from);
        if (read === 0) throw new Error(`${this.#path} ended before byte ${range.to} that awl wrote`);
        range.from += read;
        if (range.from === range.to) this.#ranges.shift();
        await write(buffer.subarray(0, read));
      }
    } finally {
      // Synchronously after the loop's last check: a range added from here on starts a new pump.
      // (After a failure too, so the result line still goes out; the failure itself is an internal error.)
      this.#pumping = false;
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  #drained(): Promise<void> {
    return this.#pumping ? new Promise((resolve) => this.#idle.push(resolve)) : Promise.resolve();
  }

  /**
   * The file, for reading. A session file deleted while awl runs is written
   * back at its path (SessionManager), and the lines after go there: reopened
   * then, it holds every byte the old one did.
   */
  #open(): number {
    if (this.#fd !== undefined && fstatSync(this.#fd).nlink > 0) return this.#fd;
    let fd: number;
    try {
      fd = openSync(this.#path!, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      // Not written back (the run ends saying so): the old file still holds every line written to it.
      if (this.#fd !== undefined) return this.#fd;
      throw error;
    }
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = fd;
    return fd;
  }
}

/** Resolves once stdout has taken `data` (at once when stdout is muted after a failure). */
function write(data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => process.stdout.write(data, () => resolve()));
}
