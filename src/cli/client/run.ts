import type { ClientCommand, ParsedArgs } from "../args.ts";

/**
 * The client commands (docs/product.md §6) for the Node client (./node.ts): the modules src/main.ts
 * runs for the executable (which names each import() itself, so each is a chunk of its own), so
 * both have the same output and exit codes (docs/automation.md "The Node client").
 */
export async function runClientCommand(command: ClientCommand, args: ParsedArgs): Promise<number> {
  switch (command) {
    case "push":
      return (await import("./push.ts")).runPush(args);
    case "pull":
      return (await import("./pull.ts")).runPull(args);
    case "publish":
      return (await import("./publish.ts")).runPublish(args);
    case "status":
      return (await import("./status.ts")).runStatus(args);
    case "rollback":
      return (await import("./rollback.ts")).runRollback(args);
    case "promote":
      return (await import("./promote.ts")).runPromote(args);
    case "diff":
      return (await import("./diff.ts")).runDiff(args);
    case "screenshots":
      return (await import("./screenshots.ts")).runScreenshots(args);
    case "languages":
      return (await import("./languages.ts")).runLanguages(args);
    case "builds":
      return (await import("./builds.ts")).runBuilds(args);
    case "verify":
      return (await import("./verify.ts")).runVerify(args);
    case "signing-key":
      return (await import("./signing-key.ts")).runSigningKey(args);
  }
}
