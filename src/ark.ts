// arktype, as every module of awl imports it: configured first. arktype reads
// its settings once, when it loads, so `./ark-config` must run before it; the
// order of these two lines is that guarantee.
//
// jitless (set in ark-config.ts): arktype would otherwise compile each schema
// into generated code (new Function) as it loads. Loading it that way took
// 47 MB of fresh memory and ~290 ms here; jitless, `awl -p` on a new session
// reaches its first request in 170 ms instead of 290, and a 100 MB resume
// peaks at 335 MB instead of 440 (bun run bench startup / scale). Validation is
// interpreted instead: ~250 ms more for the 24,000 entries of a 100 MB replay,
// which the memory not faulted in pays back.
import "./ark-config";

export { ArkErrors, type, type Type } from "arktype";
