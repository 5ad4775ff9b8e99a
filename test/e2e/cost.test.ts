// What a session costs, through the compiled binary: the usage line and
// /session show the session's cost so far by the price table `awl sessions
// stats` uses, to the cent the same; -p --max-cost refuses a request whose
// worst case would pass the budget (exit 4) and needs a priced model (exit 2).
import { describe, expect, test } from "bun:test";
import { AWL, useE2eFixture } from "./awl";
import { hasTmux, useTerminal } from "./tmux";

const fx = useE2eFixture();
const term = useTerminal();

const bash = (command: string) => ({ type: "toolUse" as const, name: "bash", input: { command } });
/** Large enough usage that every kind of token costs something: uncached input, cache reads and writes apart. */
const usage = (n: number) => ({ input: 90_000 + n, output: 1_500 + n, cacheRead: 40_000 + n, cacheWrite: 12_000 + n });

describe.skipIf(!hasTmux)("the usage line", () => {
  test("after a 5-request turn it shows the session's cost, equal to awl sessions stats; /session shows it too", async () => {
    fx.server.reply(
      ...[1, 2, 3, 4].map((n) => ({ blocks: [bash(`echo ${n}`)], usage: usage(n) })),
      { blocks: [{ type: "text" as const, text: "Counted to four." }], usage: usage(5) },
    );
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 200, height: 40 });
    await term.waitFor(/\/help for commands/);
    term.send("count to four");
    const line = /(\$\d+\.\d+) so far/.exec(await term.waitFor(/Counted to four\.[\s\S]*so far/))![1]!;
    expect(fx.server.requests).toHaveLength(5);
    // Sonnet 5.5's prices: $2 a million uncached input, $10 output, $0.20 cache reads, $2.50 cache writes: $1.1652.
    expect(line).toBe("$1.17");
    const stats = await fx.run(["sessions", "stats"]);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(new RegExp(`^total +5 .* ${line.replace("$", "\\$")}$`, "m"));
    term.send("/session");
    expect(await term.waitFor(/Cost +\$/)).toMatch(/\nCost +\$1\.17\n/);
    term.keys("C-d");
    await term.waitFor(/\[exited 0\]/);
  });
});

describe("-p --max-cost", () => {
  test("a prompt whose worst case passes the budget: nothing is sent, exit 4 with what was spent", async () => {
    const run = await fx.run(["-p", "--max-cost", "0.01", "write me a novel"]);
    expect(run.code).toBe(4);
    expect(fx.server.requests).toHaveLength(0);
    expect(run.stderr).toMatch(/^awl: stopped before a request that could cost up to \$0\.\d{4}, which would pass --max-cost \$0\.0100; spent \$0\.0000; awl -p --resume \S+ continues\n$/);
  });

  test("within the budget the turn runs as usual", async () => {
    fx.server.reply({ blocks: [{ type: "text" as const, text: "Short." }] });
    expect(await fx.run(["-p", "--max-cost", "5", "hi"])).toMatchObject({ code: 0, stdout: "Short.\n" });
  });

  test("a model without a known price is a usage error, before anything is sent", async () => {
    const run = await fx.run(["-p", "--max-cost", "1", "--model", "claude-3-5-haiku-20241022", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("awl: --max-cost needs the model's price, and awl knows none for anthropic/claude-3-5-haiku-20241022: choose a model awl has a price for with --model, or leave --max-cost out (see awl --help)\n");
    expect(fx.server.requests).toHaveLength(0);
  });
});
