// A stand-in terminal for the REPL's input code: a stdin that records its
// raw-mode switches and takes the bytes a test types, and a stdout that keeps
// what was written to it (or fails, as a terminal that went away does).
import { PassThrough, Writable } from "node:stream";

export type FakeInput = PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(on: boolean): unknown; modes: boolean[] };

/** `tty` false: a pipe on both sides (no raw mode to switch). */
export function fakeTerminal(tty = true) {
  const input = new PassThrough() as FakeInput;
  input.isTTY = tty;
  input.isRaw = false;
  input.modes = [];
  input.setRawMode = (on: boolean) => {
    input.isRaw = on;
    input.modes.push(on);
    return input;
  };
  let written = "";
  let failWrites = false;
  const output = new Writable({ write: (_chunk, _enc, done) => done() }) as Writable & { isTTY: boolean; columns: number; rows: number };
  output.write = ((chunk: string) => {
    if (failWrites) throw new Error("terminal went away");
    written += chunk;
    return true;
  }) as typeof output.write;
  output.isTTY = tty;
  output.columns = 80;
  output.rows = 24;
  return {
    rawInput: input,
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    type: (bytes: string) => input.write(bytes),
    modes: () => input.modes,
    written: () => written,
    failWrites: () => (failWrites = true),
  };
}
