// docs/extensions.md's counter extension, as an author types it: its state is
// the fold of the path's "counter" entries. The type import is erased when
// awl imports the file, so it loads with or without awl.d.ts beside it.
export const DOCS_COUNTER = `import type { Awl } from "./awl";
export default (awl: Awl) => {
  const count = awl.state("counter", () => 0, (n, data) => n + data.add);
  awl.registerTool({
    name: "bump",
    description: "Adds to the counter and says what it is now.",
    inputSchema: { type: "object", properties: { add: { type: "number" } }, required: ["add"] },
    effect: () => ({ kind: "read" }),
    execute: (input) => {
      awl.appendEntry("counter", { add: input.add });
      return \`count is \${count.get()}\`;
    },
  });
};
`;
