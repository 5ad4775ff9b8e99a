// The "waiting" indicator shown until the first token arrives. Only drawn on a
// terminal; elsewhere it is silent so piped output stays clean.

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class Spinner {
  #timer: ReturnType<typeof setInterval> | undefined;
  #frame = 0;

  constructor(
    private readonly out: { write(s: string): unknown; isTTY?: boolean },
    private readonly style: (s: string) => string,
  ) {}

  start(label: string): void {
    if (!this.out.isTTY || this.#timer) return;
    const draw = () => this.out.write(`\r${this.style(`${FRAMES[this.#frame++ % FRAMES.length]} ${label}`)}\x1b[K`);
    draw();
    this.#timer = setInterval(draw, 80);
  }

  stop(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.out.write("\r\x1b[K");
  }
}
