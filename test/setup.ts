// Preloaded before every test file (bunfig.toml): end-to-end tests start the
// compiled binary and servers, which takes longer than bun's 5 s default on a
// loaded 2-core machine. Hangs are still caught, just later.
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
