// Drives a program in a real pseudo-terminal, as a person would: tmux runs it,
// send-keys types, capture-pane reads the screen.

import { afterEach } from "bun:test";
import { readFileSync } from "node:fs";

export const hasTmux = Bun.which("tmux") !== null;

/** A terminal for the tests of the calling file, closed after each (close() then start() runs a second program in the same test). */
export function useTerminal(): Terminal {
  const term = new Terminal();
  afterEach(() => term.close());
  return term;
}

export class Terminal {
  /** A tmux server of its own; each start() after close() gets a fresh one, so a server still shutting down is never reused. */
  socket = Terminal.#newSocket();

  static #newSocket(): string {
    return `awl-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  }

  #tmux(...args: string[]): string {
    const result = Bun.spawnSync(["tmux", "-L", this.socket, ...args], { stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr.toString()}`);
    return result.stdout.toString();
  }

  start(command: string[], options: { cwd: string; env: Record<string, string>; width?: number; height?: number }): void {
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const line = `cd ${shellQuote(options.cwd)} && env -i TERM=xterm-256color ${env} ${command.map(shellQuote).join(" ")}; echo "[exited $?]"; sleep 30`;
    this.#tmux("new-session", "-d", "-x", String(options.width ?? 110), "-y", String(options.height ?? 40), "bash", "-c", line);
  }

  /** A line typed and sent with Enter. */
  send(line: string): void {
    this.type(line);
    this.keys("Enter");
  }

  /** Keys in tmux's notation (Enter, C-c, C-d, M-Enter, Up). */
  keys(...keys: string[]): void {
    this.#tmux("send-keys", ...keys);
  }

  /** Literal text, typed. */
  type(text: string): void {
    this.#tmux("send-keys", "-l", text);
  }

  screen(): string {
    return this.#tmux("capture-pane", "-p", "-S", "-200");
  }

  /** Everything the pane holds: its whole scrollback history, then the screen. */
  history(): string {
    return this.#tmux("capture-pane", "-p", "-S", "-");
  }

  /** Pastes text as a terminal does: wrapped in the bracketed-paste markers when the program asked for them. */
  paste(text: string): void {
    const load = Bun.spawnSync(["tmux", "-L", this.socket, "load-buffer", "-"], { stdin: new TextEncoder().encode(text), stderr: "pipe" });
    if (load.exitCode !== 0) throw new Error(`tmux load-buffer failed: ${load.stderr.toString()}`);
    this.#tmux("paste-buffer", "-p", "-d");
  }

  /** Resizes the window, as dragging the terminal's edge would. */
  resize(width: number, height: number): void {
    this.#tmux("resize-window", "-x", String(width), "-y", String(height));
  }

  /** The cursor's column and row on the screen. */
  cursor(): { x: number; y: number } {
    const [x, y] = this.#tmux("display-message", "-p", "#{cursor_x},#{cursor_y}").trim().split(",").map(Number);
    return { x: x!, y: y! };
  }

  /**
   * Polls the screen until it matches, or fails with what it showed. A screen
   * that matches returns at once: the 40 s limit only matters on a machine so
   * loaded that one redraw takes seconds.
   */
  waitFor(pattern: RegExp, limitMs = 40_000): Promise<string> {
    return waitForScreen(() => this.screen(), pattern, limitMs, 50);
  }

  /** The process the pane's shell runs (the program started), by the kernel's list of the shell's children. */
  childPid(): number {
    const shell = this.#tmux("display-message", "-p", "#{pane_pid}").trim();
    const children = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(" ");
    return Number(children[0]);
  }

  close(): void {
    Bun.spawnSync(["tmux", "-L", this.socket, "kill-server"], { stdout: "ignore", stderr: "ignore" });
    this.socket = Terminal.#newSocket();
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Polls `screen` until it matches `pattern`, or fails with what it showed last. */
export async function waitForScreen(screen: () => string, pattern: RegExp, limitMs: number, everyMs: number): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const shown = screen();
    if (pattern.test(shown)) return shown;
    if (Date.now() > deadline) throw new Error(`screen never matched ${pattern}:\n${shown}`);
    await Bun.sleep(everyMs);
  }
}
