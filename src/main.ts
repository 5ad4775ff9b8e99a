declare const AWL_VERSION: string;
const version = typeof AWL_VERSION === "string" ? AWL_VERSION : "dev";
console.log(`awl ${version}`);
