// Builds the one standalone executable users download: dist/awl.
// `compile` embeds the Bun runtime, so the file runs without Bun or node_modules.
import pkg from "./package.json";

const result = await Bun.build({
  entrypoints: ["./src/main.ts"],
  compile: { outfile: "./dist/awl" },
  minify: true,
  sourcemap: "none",
  // Start-up is most of a short command's time: bytecode skips parsing, and
  // splitting keeps lazily imported commands (arktype, clack) out of the
  // chunk that `awl --version` loads.
  bytecode: true,
  format: "esm",
  splitting: true,
  define: { AWL_VERSION: JSON.stringify(pkg.version) },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log("built dist/awl");
