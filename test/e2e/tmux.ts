// Drives a program in a real pseudo-terminal, as a person would: tmux runs it,
// send-keys types, capture-pane reads the screen.

export const hasTmux = Bun.which("tmux") !== null;

export class Terminal {
  readonly socket = `awl-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

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

  /** Polls the screen until it matches, or fails with what it showed. */
  async waitFor(pattern: RegExp, limitMs = 15_000): Promise<string> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`screen never matched ${pattern}:\n${screen}`);
      await Bun.sleep(50);
    }
  }

  close(): void {
    Bun.spawnSync(["tmux", "-L", this.socket, "kill-server"], { stdout: "ignore", stderr: "ignore" });
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
