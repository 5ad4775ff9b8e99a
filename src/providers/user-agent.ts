// Every request says which client sent it, so a provider's logs (or a proxy's,
// or a local server's) can tell awl's traffic apart and report a bug against
// the version that made it. The version is baked in at build time (build.ts
// defines AWL_VERSION); run from source it is "dev".

declare const AWL_VERSION: string;

export const USER_AGENT = `awl/${typeof AWL_VERSION === "string" ? AWL_VERSION : "dev"}`;
