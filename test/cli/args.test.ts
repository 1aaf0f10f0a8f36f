/**
 * The command line as the clients read it (src/cli/args.ts; docs/decisions.md "The command-line
 * parser"): one flag table, `--flag value` and `--flag=value`, repeated flags kept in order, `--`
 * ending the options, and what parseArgs of node:util would read alike.
 */
import { describe, expect, test } from "bun:test";
import { checkFlags, parseArgs } from "../../src/cli/args.ts";
import { FLAGS } from "../../src/cli/usage.ts";

const read = (argv: string[]) => {
  const p = parseArgs(argv, FLAGS);
  return { ...p, switches: [...p.switches] };
};

describe("the clients' command line", () => {
  test("words, values either way, repeated flags in order, switches", () => {
    expect(read(["pull", "--language", "de", "--language=fr", "--force"])).toEqual({ words: ["pull"], flags: { "--language": "fr" }, lists: { "--language": ["de", "fr"] }, switches: ["--force"], help: false, unknown: [] });
  });

  test("a value may start with a dash; everything after -- is a word; a short option is unknown", () => {
    expect(read(["status", "--min-progress", "-5"]).flags["--min-progress"]).toBe("-5");
    expect(read(["push", "--", "--odd.json", "-x.json"]).words).toEqual(["push", "--odd.json", "-x.json"]);
    expect(read(["push", "-x"]).unknown).toEqual(["-x"]);
    expect(read(["push", "-h"]).help).toBe(true);
  });

  test("bad usage is one line, exit 1, for the client's commands and the server's", () => {
    expect(() => parseArgs(["pull", "--out"], FLAGS)).toThrow("option --out needs a value");
    expect(() => parseArgs(["push", "--dry-run=yes"], FLAGS)).toThrow("option --dry-run takes no value");
    for (const [command, argv, message] of [
      ["push", ["push", "-x"], "unknown option -x (see phrasebook push --help)"],
      ["pull", ["pull", "--dry-run"], "pull does not take --dry-run (see phrasebook pull --help)"],
      ["serve", ["serve", "--prot", "9"], "unknown option --prot (see phrasebook --help)"],
    ] as const) {
      let thrown: { message: string; exitCode: number } | undefined;
      try {
        checkFlags(command, parseArgs([...argv], FLAGS), FLAGS);
      } catch (err) {
        thrown = err as { message: string; exitCode: number };
      }
      expect({ message: thrown?.message, exitCode: thrown?.exitCode }).toEqual({ message, exitCode: 1 });
    }
  });

  test("a flag of the server and the client is taken by the commands of both", () => {
    expect(() => checkFlags("pull", parseArgs(["pull", "--cdn-url", "https://cdn.example.test"], FLAGS), FLAGS)).not.toThrow();
    expect(() => checkFlags("serve", parseArgs(["serve", "--cdn-url", "https://cdn.example.test"], FLAGS), FLAGS)).not.toThrow();
    expect(() => checkFlags("publish", parseArgs(["publish", "--name", "x"], FLAGS), FLAGS)).not.toThrow();
    expect(() => checkFlags("user", parseArgs(["user", "--name", "x"], FLAGS), FLAGS)).not.toThrow();
  });

  test("the Node client's table holds the client's flags only: a server setting is unknown to it", () => {
    expect(parseArgs(["serve", "--port", "9000"]).unknown).toEqual(["--port"]);
    expect(parseArgs(["serve", "--port", "9000"], FLAGS).flags["--port"]).toBe("9000");
  });
});
