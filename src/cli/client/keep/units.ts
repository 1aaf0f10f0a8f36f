import { placeNewKeys } from "./order.ts";

/**
 * Files of entries in a text format (Android `strings.xml`, `.strings`, `.stringsdict`) as `pull`
 * rewrites a team's own (docs/automation.md "Pull keeps the repository's shape"): the file is cut
 * into its entries, each with the white space and the comment before it; an entry whose string
 * the release has unchanged is kept byte for byte, a changed one gets the release's entry in its
 * place (after its own comment), a new one goes where the source file has it, with the white space
 * the file puts between entries and the release's comment only when the file's entries have
 * comments, and an entry the release no longer has goes with its comment. Everything else (the
 * header, other resources, comments of their own) stays where it is.
 */
export interface Unit {
  /** The entry's key; undefined for anything else (another resource, a comment standing alone). */
  key?: string;
  /** White space before it. */
  lead: string;
  /** The comment that belongs to the entry (the key's context), or "". */
  comment: string;
  /** White space between that comment and the entry. */
  gap: string;
  body: string;
}

export interface Units {
  head: string;
  units: Unit[];
  tail: string;
}

const unitText = (u: Unit) => u.lead + u.comment + u.gap + u.body;

/** The indentation a lead ends with: the white space after its last line break. */
const indentOf = (lead: string) => lead.slice(lead.lastIndexOf("\n") + 1);

/** The lead most entries of a file have after the first: what a new entry is given. */
function usualLead(units: readonly Unit[], fallback: string): string {
  const counts = new Map<string, number>();
  units.forEach((u, i) => {
    if (u.key !== undefined && (i > 0 || u.lead.includes("\n"))) counts.set(u.lead, (counts.get(u.lead) ?? 0) + 1);
  });
  let best = fallback;
  let most = 0;
  for (const [lead, n] of counts) if (n > most) [best, most] = [lead, n];
  return best;
}

/**
 * The release's entry re-indented as the local file indents: each line's indentation, counted in
 * the release file's steps, becomes as many of the local file's.
 */
function reindent(body: string, from: string, to: string): string {
  if (from === to || from === "" || !body.includes("\n")) return body;
  return body.replace(/\n([ \t]*)/g, (_, ws: string) => {
    let levels = 0;
    let rest = ws;
    while (rest.startsWith(from)) {
      rest = rest.slice(from.length);
      levels++;
    }
    return `\n${to.repeat(levels)}${rest}`;
  });
}

export interface UnitMerge {
  local: Units;
  fresh: Units;
  /** Whether the local entry of `key` holds the release's string (read both files with the format's reader). */
  same(key: string): boolean;
  orders: readonly (readonly string[])[];
  /** The keys the file is to hold (its set's source's); by default every key of the release's file. */
  only?: (key: string) => boolean;
  /** Keys the release does not have yet but the source does: their entries stay as they are. */
  keep?: (key: string) => boolean;
}

export function mergeUnits({ local, fresh, same, orders, only = () => true, keep = () => false }: UnitMerge): string {
  const theirs = new Map(fresh.units.filter((u) => u.key !== undefined && only(u.key)).map((u) => [u.key!, u]));
  const entries = local.units.filter((u) => u.key !== undefined);
  const mine = new Set(entries.map((u) => u.key!));
  const kept = entries.map((u) => u.key!).filter((k) => theirs.has(k) || keep(k));
  const added = [...theirs.keys()].filter((k) => !mine.has(k));
  const placement = placeNewKeys(kept, added, [...orders, fresh.units.flatMap((u) => (u.key === undefined ? [] : [u.key]))]);
  const freshIndent = indentOf(theirs.values().next().value?.lead ?? "");
  // A file with no entry yet takes the release's indentation.
  const step = { from: freshIndent, to: entries[0] ? indentOf(entries[0].lead) : freshIndent };
  const withComments = entries.some((u) => u.comment !== "");
  const lead = usualLead(local.units, theirs.values().next().value?.lead ?? "\n");
  const gap = entries.find((u) => u.comment !== "")?.gap;
  const added1 = (key: string, first: boolean): string => {
    const u = theirs.get(key)!;
    const comment = withComments && u.comment ? u.comment + (gap ?? reindent(u.gap, step.from, step.to)) : "";
    return (first ? (local.units[0]?.lead ?? lead) : lead) + comment + reindent(u.body, step.from, step.to);
  };
  const out: string[] = [local.head];
  placement.first.forEach((k, i) => out.push(added1(k, i === 0)));
  local.units.forEach((u, i) => {
    if (u.key === undefined) {
      out.push(i === 0 && placement.first.length > 0 && !u.lead.includes("\n") ? lead + u.body : unitText(u));
      return;
    }
    const fresher = theirs.get(u.key);
    if (!fresher && !keep(u.key)) return; // the release no longer has it
    const leadHere = i === 0 && placement.first.length > 0 && !u.lead.includes("\n") ? lead : u.lead;
    out.push(!fresher || same(u.key) ? leadHere + u.comment + u.gap + u.body : leadHere + u.comment + u.gap + reindent(fresher.body, step.from, step.to));
    for (const k of placement.after.get(u.key) ?? []) out.push(added1(k, false));
  });
  out.push(local.tail);
  return out.join("");
}
