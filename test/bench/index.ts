// `bun run bench`: runs every test/bench/*.bench.ts in its own process (so peak
// memory figures are per benchmark) and lets each print its own figures.
// `bun run bench session` runs only the files whose name contains "session".
import { Glob } from "bun";

const filter = process.argv[2] ?? "";
const files = [...new Glob("*.bench.ts").scanSync(import.meta.dir)].filter((f) => f.includes(filter)).sort();
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const child = Bun.spawnSync(["bun", "run", `${import.meta.dir}/${file}`], { stdout: "inherit", stderr: "inherit" });
  if (child.exitCode !== 0) failed++;
}
process.exit(failed ? 1 : 0);
