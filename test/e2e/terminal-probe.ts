// awl in a real pseudo-terminal (tmux), with what it leaves behind checked
// the way the next program sees it. After awl exits, the pane's shell prints
// awl's exit status and the terminal's line discipline flags (`stty -a`: raw
// mode is -icanon -echo -isig), then reads one line: the test pastes into it
// with `tmux paste-buffer -p`, which adds the bracketed-paste markers exactly
// when the application left bracketed paste on, so `READ<^[[200~probe^[[201~>`
// means it was left on and `READ<probe>` that it was put back. The line ends
// with Ctrl+J, which ends it even in raw mode.

import { readdirSync, readFileSync } from "node:fs";
import { waitForScreen } from "./tmux";

export const hasTmux = Bun.which("tmux") !== null;

export interface Aftermath {
  /** awl's exit status as the shell saw it (128 + n when killed by signal n). */
  exit: number;
  /** The line discipline flags among icanon, echo, isig ("-icanon" when raw). */
  modes: string[];
  raw: boolean;
  bracketedPaste: boolean;
}

export class ProbedTerminal {
  readonly socket = `awl-probe-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  tmux(...args: string[]): string {
    const result = Bun.spawnSync(["tmux", "-L", this.socket, ...args], { stdout: "pipe", stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr.toString()}`);
    return result.stdout.toString();
  }

  start(command: string[], options: { cwd: string; env: Record<string, string>; width?: number; height?: number }): void {
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(" ");
    const line = [
      `cd ${shellQuote(options.cwd)} && env -i TERM=xterm-256color ${env} ${command.map(shellQuote).join(" ")}`,
      `echo "[exited $?]"`,
      `echo "MODES: $(stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo|isig)' | tr '\\n' ' ')"`,
      `IFS= read -r l`,
      `printf 'READ<%s>\\n' "$l" | cat -v`,
      `sleep 60`,
    ].join("; ");
    this.tmux("new-session", "-d", "-x", String(options.width ?? 110), "-y", String(options.height ?? 40), "bash", "-c", line);
  }

  /** The pid of the program the pane's shell runs (awl), once it has started; undefined after it exited. */
  childPid(): number | undefined {
    const shell = Number(this.tmux("display-message", "-p", "#{pane_pid}").trim());
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
        const [, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(ppid) === shell && !stat.includes("(sleep)") && !stat.includes("(stty)")) return Number(name);
      } catch {
        // Gone while we looked.
      }
    }
    return undefined;
  }

  /** Waits until the program has started (its pid is known and it runs awl, not the shell's `env`). */
  async waitForChild(limitMs = 15_000): Promise<number> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const pid = this.childPid();
      if (pid !== undefined) {
        try {
          if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "env") return pid;
        } catch {
          // Exited already.
        }
      }
      if (Date.now() > deadline) throw new Error(`the program never started:\n${this.screen()}`);
      await Bun.sleep(5);
    }
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-500");
  }

  waitFor(pattern: RegExp, limitMs = 40_000): Promise<string> {
    return waitForScreen(() => this.screen(), pattern, limitMs, 25);
  }

  keys(...keys: string[]): void {
    this.tmux("send-keys", ...keys);
  }

  type(text: string): void {
    this.tmux("send-keys", "-l", text);
  }

  /** After the program exited: its status, the terminal's modes, and whether bracketed paste was left on. */
  async aftermath(limitMs = 15_000): Promise<Aftermath> {
    const screen = await this.waitFor(/MODES: .*\n/, limitMs);
    const exit = Number(/\[exited (\d+)\]/.exec(screen)![1]);
    const modes = /MODES: (.*)/.exec(screen)![1]!.trim().split(/\s+/);
    const load = Bun.spawnSync(["tmux", "-L", this.socket, "load-buffer", "-"], { stdin: new TextEncoder().encode("probe") });
    if (load.exitCode !== 0) throw new Error(`tmux load-buffer failed: ${load.stderr.toString()}`);
    this.tmux("paste-buffer", "-p", "-d");
    this.keys("C-j");
    const read = /READ<(.*)>/.exec(await this.waitFor(/READ<.*>/, limitMs))![1]!;
    return { exit, modes, raw: modes.includes("-icanon"), bracketedPaste: read.includes("[200~") };
  }

  close(): void {
    Bun.spawnSync(["tmux", "-L", this.socket, "kill-server"], { stdout: "ignore", stderr: "ignore" });
  }
}

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
