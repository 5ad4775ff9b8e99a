// A browser for sign-in tests ($BROWSER): follows the authorization URL,
// which the test server redirects, with its code, to awl's callback.
await fetch(process.argv[2]!);
export {};
