// arktype's settings, which it reads once, when it is first loaded: so every
// module that imports arktype imports this module first.
//
// jitless: arktype would otherwise compile each schema into generated code
// (new Function) when it loads. Loading it that way took 47 MB of fresh
// memory and ~290 ms here; jitless, `awl -p` on a new session reaches its
// first request in 170 ms instead of 290, and a 100 MB resume peaks at 335 MB
// instead of 440 (bun run bench startup / scale). Validation is interpreted
// instead, which replay of 24,000 entries does not notice.
import { configure } from "arktype/config";

configure({ jitless: true });
