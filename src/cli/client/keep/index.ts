import type { FormatName } from "../../../formats/registry.ts";
import { keepCatalogShape, type CatalogPull } from "./catalog.ts";
import { keepArbShape, keepJsonShape, type MergeOptions } from "./json.ts";
import { androidUnits, stringsdictUnits, stringsUnits } from "./segments.ts";
import { mergeUnits, type Units } from "./units.ts";
import { keepYamlShape } from "./yaml.ts";

/**
 * Where the local file exists, `pull` writes the release's strings in its shape
 * (docs/automation.md "Pull keeps the repository's shape"), one way per format. PO and XLIFF are
 * exchange files a tool writes whole, and are written as the release has them. Undefined: the
 * file could not be read closely enough, and the release's file is written as it is.
 */
export interface KeepInput {
  format: FormatName;
  local: string;
  /** The file as `pull` writes it where there is none. */
  fresh: string;
  /** The local file's strings of the language it is pulled for (key to value, in file order), and the release's. */
  mine: ReadonlyMap<string, string>;
  theirs: ReadonlyMap<string, string>;
  /** The key orders new keys are placed by: the source file's. */
  orders: readonly (readonly string[])[];
  /** A String Catalog: the languages pulled into it. */
  catalog?: CatalogPull;
  /** The keys the file is to hold: its set's source's (a release of several sets holds them all). */
  only?: (key: string) => boolean;
  /** Whether the local string of `key` is the release's (by default: `mine` and `theirs` agree). */
  same?: (key: string) => boolean;
  /** Keys the release does not have yet but the source does: the file's entries of them stay. */
  keep?: (key: string) => boolean;
}

function units(input: KeepInput, local: Units | undefined, fresh: Units | undefined): string | undefined {
  if (!local || !fresh) return undefined;
  return mergeUnits({ local, fresh, same: input.same ?? ((key) => input.mine.get(key) === input.theirs.get(key)), ...options(input) });
}

const options = (input: KeepInput): MergeOptions => ({ orders: input.orders, ...(input.only ? { only: input.only } : {}), ...(input.keep ? { keep: input.keep } : {}) });

export async function keepShape(input: KeepInput): Promise<string | undefined> {
  switch (input.format) {
    case "json":
      return keepJsonShape(input.local, input.fresh, options(input));
    case "arb":
      return keepArbShape(input.local, input.fresh, options(input));
    case "yaml":
      return keepYamlShape(input.local, input.theirs, options(input));
    case "android":
      return units(input, androidUnits(input.local), androidUnits(input.fresh));
    case "stringsdict":
      return units(input, stringsdictUnits(input.local), stringsdictUnits(input.fresh));
    case "strings":
      // A `.strings` key is read with its escapes by the format's reader: the cutter takes them in file order.
      return units(input, stringsUnits(input.local, [...input.mine.keys()]), stringsUnits(input.fresh, [...input.theirs.keys()]));
    case "xcstrings":
      return input.catalog ? keepCatalogShape(input.local, input.fresh, input.catalog) : undefined;
    default:
      return undefined;
  }
}
