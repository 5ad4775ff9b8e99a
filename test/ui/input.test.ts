import { describe, expect, test } from "bun:test";
import { PassThrough, Writable } from "node:stream";
import { readLine, watchInterrupt } from "../../src/ui/input";

/** A stand-in for a TTY stdin: records raw-mode switches, takes bytes written to it. */
function fakeTty() {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(on: boolean): unknown; modes: boolean[] };
  input.isTTY = true;
  input.isRaw = false;
  input.modes = [];
  input.setRawMode = (on: boolean) => {
    input.isRaw = on;
    input.modes.push(on);
    return input;
  };
  let written = "";
  let failWrites = false;
  const output = new Writable({ write: (_chunk, _enc, done) => done() }) as Writable & { isTTY: boolean; columns: number };
  output.write = ((chunk: string) => {
    if (failWrites) throw new Error("terminal went away");
    written += chunk;
    return true;
  }) as typeof output.write;
  output.isTTY = true;
  output.columns = 80;
  return {
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    type: (bytes: string) => input.write(bytes),
    modes: () => input.modes,
    written: () => written,
    failWrites: () => (failWrites = true),
  };
}

describe("readLine on a terminal", () => {
  test("returns the line, appends it to the caller's history, and restores the terminal", async () => {
    const tty = fakeTty();
    const history = ["older"];
    const pending = readLine({ prompt: "> ", history, input: tty.input, output: tty.output });
    tty.type("hi there\r");
    expect(await pending).toEqual({ kind: "line", text: "hi there" });
    expect(history).toEqual(["older", "hi there"]);
    expect(tty.modes()).toEqual([true, false]);
    expect(tty.written()).toStartWith("\x1b[?2004h");
    expect(tty.written()).toEndWith("\r\n\x1b[?2004l");
  });

  test("keys after Enter in the same read are kept for the next prompt", async () => {
    const tty = fakeTty();
    const options = { prompt: "> ", history: [], input: tty.input, output: tty.output };
    const first = readLine(options);
    tty.type("one\rtwo\r\x04");
    expect(await first).toEqual({ kind: "line", text: "one" });
    expect(await readLine(options)).toEqual({ kind: "line", text: "two" });
    expect(await readLine(options)).toEqual({ kind: "quit" });
  });

  test("a failure while drawing rejects, with raw mode and bracketed paste switched back off", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    tty.failWrites();
    tty.type("x");
    await expect(pending).rejects.toThrow("terminal went away");
    expect(tty.modes()).toEqual([true, false]);
  });

  test("the end of input is a quit", async () => {
    const tty = fakeTty();
    const pending = readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output });
    (tty.input as unknown as PassThrough).end();
    expect(await pending).toEqual({ kind: "quit" });
  });
});

describe("watchInterrupt", () => {
  test("Ctrl+C calls back; other keys wait as type-ahead for the next prompt; stopping restores the terminal", async () => {
    const tty = fakeTty();
    let interrupts = 0;
    const stop = watchInterrupt(() => interrupts++, tty.input, tty.output);
    tty.type("lost\x03");
    await Bun.sleep(0);
    expect(interrupts).toBe(1);
    tty.type("kept\r");
    await Bun.sleep(0);
    stop();
    expect(tty.modes()).toEqual([true, false]);
    expect(await readLine({ prompt: "> ", history: [], input: tty.input, output: tty.output })).toEqual({ kind: "line", text: "kept" });
  });

  test("does nothing when stdin is not a terminal", () => {
    const stop = watchInterrupt(() => {}, new PassThrough() as unknown as NodeJS.ReadStream);
    stop();
  });
});

describe("readLine when stdin is not a terminal", () => {
  test("reads one line per call, a last line without newline included, then quits at the end", async () => {
    const input = new PassThrough() as unknown as NodeJS.ReadStream;
    const options = { prompt: "> ", history: [], input };
    (input as unknown as PassThrough).end("first\r\nsecond\nthird");
    expect(await readLine(options)).toEqual({ kind: "line", text: "first" });
    expect(await readLine(options)).toEqual({ kind: "line", text: "second" });
    expect(await readLine(options)).toEqual({ kind: "line", text: "third" });
    expect(await readLine(options)).toEqual({ kind: "quit" });
  });
});
