import { DART_RESERVED_WORDS } from "../../formats/arb-names.ts";
import { CliError } from "../../common/errors.ts";

/**
 * What `pull` makes of a release's CDN files so the team gets its own files back (docs/product.md
 * §9, docs/automation.md "Round trip"): ARB messages named as the template named them, with their
 * `@` entries, and JSON nested when the team's file is nested.
 */

/** A name gen-l10n accepts for a message (docs/formats.md "What gen-l10n accepts"). */
export function isGenL10nName(key: string): boolean {
  return /^[a-z][A-Za-z0-9_]*$/.test(key) && !DART_RESERVED_WORDS.has(key);
}

type Json = Record<string, unknown>;

/**
 * The team's ARB file from the release's CDN `.arb` and `.json` of one language: message `n` of the
 * ARB is key `n` of the JSON (docs/formats.md "ARB metadata": both list the language's keys in
 * code-point order), so each message gets its key as authored when gen-l10n accepts it as a name,
 * else the CDN's spec §2.6 name; a name taken twice gets the next free number (spec §2.6 rule 3).
 * `@@` attributes and each message's `@` entry are carried as the CDN file has them.
 */
export function teamArb(what: string, cdnArb: Json, cdnJson: Json, locale?: string): Json {
  const keys = Object.keys(cdnJson);
  const messages = Object.keys(cdnArb).filter((name) => !name.startsWith("@"));
  if (messages.length !== keys.length) {
    throw new CliError(`${what}: the release's ARB file has ${messages.length} messages and its JSON file ${keys.length} keys; they should match`, 2);
  }
  // No prototype: a message name is never a property of Object.prototype (docs/automation.md "What the client trusts").
  const out: Json = Object.create(null);
  for (const [name, value] of Object.entries(cdnArb)) if (name.startsWith("@@")) out[name] = value;
  if (locale !== undefined) out["@@locale"] = locale;
  const used = new Set<string>();
  messages.forEach((spec, i) => {
    const preferred = isGenL10nName(keys[i]!) ? keys[i]! : spec;
    let name = preferred;
    for (let n = 2; used.has(name); n++) name = `${preferred}${n}`;
    used.add(name);
    out[name] = cdnArb[spec];
    if (cdnArb[`@${spec}`] !== undefined) out[`@${name}`] = cdnArb[`@${spec}`];
  });
  return out;
}

/** Whether a JSON document nests objects: the shape a pull keeps (docs/product.md §9 "JSON"). */
export function isNested(doc: unknown): boolean {
  return typeof doc === "object" && doc !== null && !Array.isArray(doc) && Object.values(doc).some((v) => typeof v === "object" && v !== null);
}

/**
 * Flat keys (`a.b`) as nested objects, or why they cannot nest: a key that is also the prefix of
 * another (`a` and `a.b`), or a key with an empty part (`a..b`).
 */
export function nest(flat: Json): { nested: Json } | { why: string } {
  // Objects without a prototype: a key part `__proto__` or `constructor` is a key like any other,
  // never a way into Object.prototype (docs/automation.md "What the client trusts").
  const out: Json = Object.create(null);
  const keys = Object.keys(flat);
  for (const key of keys) {
    const parts = key.split(".");
    if (parts.some((p) => p === "")) return { why: `the key "${key}" has an empty part between dots` };
    let node = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = node[parts[i]!];
      if (next === undefined) node = (node[parts[i]!] = Object.create(null)) as Json;
      else if (typeof next === "object" && next !== null) node = next as Json;
      else return { why: `the key "${parts.slice(0, i + 1).join(".")}" is also the prefix of "${key}"` };
    }
    const last = parts.at(-1)!;
    if (node[last] !== undefined) return { why: `the key "${key}" is also the prefix of another key` };
    node[last] = flat[key];
  }
  return { nested: out };
}
