// /rewind with files in a real terminal (tmux), through the compiled binary:
// the prompts listed with the files each turn changed, the preview, the
// question that names a file the person changed since (no by default: then
// nothing changes), the prompt given back, and the rewind listed in turn,
// saying where its undo goes, so that it can be undone.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AWL, useE2eFixture } from "./awl";
import { recordTurns } from "./turns";
import { hasTmux, useTerminal } from "./tmux";
import { bash, edit, gitFiles, makeRepository, projectFiles, write } from "../support/checkpoint-repo";

const fx = useE2eFixture();
const term = useTerminal();

const answer = (t: string) => ({ blocks: [{ type: "text" as const, text: t }] });

describe.skipIf(!hasTmux)("/rewind with files", () => {
  test("goes back before a prompt (a file changed since kept unless the person says yes), then undoes itself", async () => {
    await makeRepository(fx.project);
    const gitStart = gitFiles(fx.project);
    fx.server.reply(
      { blocks: [edit("a.txt", "alpha", "ALPHA")] },
      answer("done one"),
      { blocks: [write("new.txt", "fresh\n"), bash("sed -i 's/two/TWO/' b.txt")] },
      answer("done two"),
    );
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 140, height: 45 });
    await term.waitFor(/\/help for commands/);
    term.send("turn one");
    await term.waitFor(/done one/);
    const afterOne = projectFiles(fx.project);
    term.send("turn two");
    await term.waitFor(/done two/);
    const afterTwo = projectFiles(fx.project);
    writeFileSync(join(fx.project, "b.txt"), "the person's own words\n");

    term.send("/rewind");
    const list = await term.waitFor(/Go back to before which prompt[\s\S]*turn one/);
    expect(list).toMatch(/turn two\s+new\.txt, b\.txt/);
    expect(list).toMatch(/turn one\s+a\.txt/);
    term.keys("Enter"); // turn two, the newest
    await term.waitFor(/◆ {2}What goes back\?/);
    term.keys("Enter"); // the conversation and the files
    const preview = await term.waitFor(/overwrite it anyway\?/);
    expect(preview).toMatch(/new\.txt {2}removed \+0 -1/);
    expect(preview).toMatch(/b\.txt {2}refused: changed since awl last changed it/);
    expect(preview).toContain("b.txt changed since awl last changed it: overwrite it anyway?");
    term.keys("Enter"); // no, the default
    // Kept as it is, the rewind would be half done: nothing changes, the session stays where it is.
    await term.waitFor(/Nothing was changed: b\.txt stays as it is/);
    expect(readFileSync(join(fx.project, "b.txt"), "utf8")).toBe("the person's own words\n");
    expect(existsSync(join(fx.project, "new.txt"))).toBe(true);

    term.send("/rewind");
    await term.waitFor(/Nothing was changed[\s\S]*Go back to before which prompt/);
    term.keys("Enter"); // turn two, the newest
    await term.waitFor(/Nothing was changed[\s\S]*◆ {2}What goes back\?/);
    term.keys("Enter");
    await term.waitFor(/Nothing was changed[\s\S]*◆ {2}b\.txt changed since awl last changed it: overwrite it anyway\?/);
    term.keys("Left", "Enter"); // yes, this time
    await term.waitFor(/Go back to before that prompt\?/);
    term.keys("Enter");
    await term.waitFor(/Went back to before that prompt/);
    await term.waitFor(/› turn two/);
    expect(projectFiles(fx.project)).toEqual(afterOne);

    term.keys("C-u");
    term.send("/rewind");
    await term.waitFor(/undo this rewind: back to after “turn two”[\s\S]*turn one/);
    term.keys("Enter"); // the rewind, the newest
    await term.waitFor(/Went back[\s\S]*◆ {2}What goes back\?/);
    term.keys("Enter");
    await term.waitFor(/Undo that rewind\?/);
    term.keys("Enter");
    await term.waitFor(/Undid that rewind: back to after “turn two”/);
    expect(projectFiles(fx.project)).toEqual(afterTwo);
    expect(gitFiles(fx.project)).toEqual(gitStart);
  }, 120_000);

  test("/tree says the files stay as they are, and offers them too when they differ from their state there", async () => {
    await makeRepository(fx.project);
    fx.server.reply({ blocks: [edit("a.txt", "alpha", "ALPHA")] }, answer("done one"), { blocks: [write("new.txt", "fresh\n")] }, answer("done two"));
    term.start([AWL], { cwd: fx.project, env: fx.env, width: 140, height: 45 });
    await term.waitFor(/\/help for commands/);
    term.send("turn one");
    await term.waitFor(/done one/);
    term.send("turn two");
    await term.waitFor(/done two/);

    term.send("/tree");
    await term.waitFor(/The session as a tree \(prompts/);
    term.keys("Up", "Enter"); // turn two: the files as after turn one
    const offer = await term.waitFor(/Take the files back there too\?/);
    expect(offer).toMatch(/The files differ from their state there:\s+new\.txt {2}removed \+0 -1/);
    term.keys("Enter"); // no, the default
    await term.waitFor(/Summarize the path you are leaving/);
    term.keys("Enter");
    await term.waitFor(/The files stay as they are: 1 differs\s+from their state there\./);
    expect(existsSync(join(fx.project, "new.txt"))).toBe(true);

    term.send("/tree");
    await term.waitFor(/stay as they are[\s\S]*The session as a tree \(prompts/);
    term.keys("Up", "Enter"); // turn one: the files as before any turn
    await term.waitFor(/stay as they are[\s\S]*Take the files back there too\?/);
    term.keys("Left", "Enter"); // yes
    await term.waitFor(/stay as they are[\s\S]*Summarize the path you are leaving/);
    term.keys("Enter");
    await term.waitFor(/The files went back there too/);
    expect(existsSync(join(fx.project, "new.txt"))).toBe(false);
    expect(readFileSync(join(fx.project, "a.txt"), "utf8")).toBe("alpha\nbeta\n");
  }, 120_000);

  test("--resume --at a prompt opens before it, with the prompt in the input box to edit and send", async () => {
    const s = await recordTurns(fx, [[write("one.txt", "1\n")], [write("two.txt", "2\n")]]);
    const prompt = s.nodes.find((n) => n.text === "turn 2")!.id;
    term.start([AWL, "--resume", s.id, "--at", prompt], { cwd: fx.project, env: fx.env, width: 140, height: 45 });
    await term.waitFor(/Left out, to send again or change: turn 2/);
    await term.waitFor(/› turn 2\s*$/m);
    fx.server.reply(answer("answered again"));
    term.keys(" ", "a", "g", "a", "i", "n", "Enter");
    await term.waitFor(/answered again/);
    const sent = fx.server.requests.at(-1)!.body.messages.flatMap((m: any) => m.content.flatMap((b: any) => (b.type === "text" ? [b.text] : [])));
    expect(sent).toEqual(["turn 1", "done 1", "turn 2 again"]);
  }, 120_000);
});
