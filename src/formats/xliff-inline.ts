import { decodeXml, escapeXmlText, type XmlPiece } from "./xml.ts";
import { storedText, valueParts } from "./inline.ts";

/**
 * Markup in XLIFF (docs/formats.md "XLIFF", "Markup in values"): the tags of a value (`<b>`,
 * Android's `<xliff:g id="n">`) become XLIFF's inline elements holding the original code, so a file
 * is namespace-well-formed, translation tools protect the codes, and a file pushed back gives the
 * very tags it was written from.
 *
 * - XLIFF 1.2: a pair is `<bpt id="1">&lt;b&gt;</bpt>…<ept id="1">&lt;/b&gt;</ept>`, a tag alone
 *   `<ph id="2">&lt;br/&gt;</ph>` (the original code escaped inside: translate-toolkit shows it).
 * - XLIFF 2.0: a pair is `<pc id="1" dataRefStart="d1" dataRefEnd="d2">…</pc>`, a tag alone
 *   `<ph id="2" dataRef="d3"/>`, the codes in the unit's `<originalData>`.
 *
 * The same code has the same id in the source and the target (the n-th `<b>` of the target is the
 * n-th `<b>` of the source), as the specifications ask for corresponding codes.
 */

/** The ids of one unit's inline codes, and for 2.0 its original data. */
export class InlineCodes {
  private readonly ids = new Map<string, number[]>();
  private nextId = 1;
  private readonly dataIds = new Map<string, string>();
  /** The unit's `<originalData>` entries (2.0), in order of first use. */
  readonly data: { id: string; code: string }[] = [];

  /** A new segment's view: the n-th use of a code there takes the n-th id the code has in the unit. */
  segment(): (key: string) => number {
    const used = new Map<string, number>();
    return (key) => {
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      let list = this.ids.get(key);
      if (!list) this.ids.set(key, (list = []));
      if (list.length <= n) list.push(this.nextId++);
      return list[n]!;
    };
  }

  /** The `<data>` id of an original code (2.0), one per distinct code. */
  dataRef(code: string): string {
    let id = this.dataIds.get(code);
    if (!id) {
      id = `d${this.dataIds.size + 1}`;
      this.dataIds.set(code, id);
      this.data.push({ id, code });
    }
    return id;
  }

  /** A 2.0 unit's `<originalData>` lines, none when it has no codes. */
  originalData(indent: string): string[] {
    if (this.data.length === 0) return [];
    return [`${indent}<originalData>`, ...this.data.map((d) => `${indent}  <data id="${d.id}">${escapeXmlText(d.code)}</data>`), `${indent}</originalData>`];
  }
}

/** A stored value as the content of a `<source>` or `<target>` of `version`, its tags as inline elements. */
export function xliffContent(value: string, version: "1.2" | "2.0", codes: InlineCodes): string {
  const parts = valueParts(value);
  const idOf = codes.segment();
  const idAt = new Map<number, number>();
  let out = "";
  parts.forEach((part, index) => {
    if ("text" in part) {
      out += escapeXmlText(part.text);
      return;
    }
    if (part.kind === "empty" || part.partner === index) {
      const id = idOf(part.tag);
      out += version === "2.0" ? `<ph id="${id}" dataRef="${codes.dataRef(part.tag)}"/>` : `<ph id="${id}">${escapeXmlText(part.tag)}</ph>`;
      return;
    }
    if (part.kind === "open") {
      const close = parts[part.partner] as { tag: string };
      const id = idOf(`${part.tag}\u0000${close.tag}`);
      idAt.set(index, id);
      out += version === "2.0" ? `<pc id="${id}" dataRefStart="${codes.dataRef(part.tag)}" dataRefEnd="${codes.dataRef(close.tag)}">` : `<bpt id="${id}">${escapeXmlText(part.tag)}</bpt>`;
      return;
    }
    out += version === "2.0" ? "</pc>" : `<ept id="${idAt.get(part.partner)}">${escapeXmlText(part.tag)}</ept>`;
  });
  return out;
}

/** The attributes of a tag as written (`<ph id="1" dataRef="d1"/>`), decoded. */
function attributesOf(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of tag.matchAll(/\s([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) found.set(m[1]!, decodeXml(m[2] ?? m[3] ?? ""));
  return found;
}

/** The 1.2 elements whose content is the original code (`<bpt>&lt;b&gt;</bpt>`). */
const CODE_ELEMENTS = new Set(["bpt", "ept", "ph", "it"]);

/**
 * The stored value of a `<source>` or `<target>` (its pieces, xml.ts): text decoded with `<` as
 * `&lt;`; an inline element holding its original code (1.2 `<bpt>`, `<ept>`, `<ph>`, `<it>`; 2.0
 * `<ph>`, `<pc>`, `<sc>`, `<ec>` whose `dataRef`s name the unit's `<originalData>`) as that code;
 * a 2.0 `<cp hex>` as its character; any other element (another tool's `<g>`, `<x/>`, `<mrk>`)
 * kept as written. Linear in the number of pieces.
 */
export function storedFromXliff(pieces: readonly XmlPiece[], data: ReadonlyMap<string, string> | null): string {
  let out = "";
  const pcEnds: (string | null)[] = [];
  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k]!;
    if ("text" in p) {
      out += storedText(p.text);
      continue;
    }
    if (!data && p.kind === "open" && CODE_ELEMENTS.has(p.name)) {
      // 1.2: the code is the element's text, up to its own closing tag (a <sub> inside is passed over).
      let code = "";
      let depth = 1;
      for (k++; k < pieces.length; k++) {
        const q = pieces[k]!;
        if ("text" in q) code += q.text;
        else if (q.name === p.name && q.kind !== "empty" && (q.kind === "open" ? ++depth : --depth) === 0) break;
      }
      out += code;
      continue;
    }
    if (data) {
      const attrs = p.kind === "close" ? null : attributesOf(p.tag);
      const ref = (name: string) => {
        const id = attrs?.get(name);
        return id === undefined ? undefined : data.get(id);
      };
      if (p.name === "cp" && p.kind === "empty") {
        const code = parseInt(attrs?.get("hex") ?? "", 16);
        if (Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) {
          out += storedText(String.fromCodePoint(code));
          continue;
        }
      } else if ((p.name === "ph" || p.name === "sc" || p.name === "ec") && p.kind === "empty" && ref("dataRef") !== undefined) {
        out += ref("dataRef");
        continue;
      } else if (p.name === "pc" && p.kind === "open") {
        const start = ref("dataRefStart");
        const end = ref("dataRefEnd");
        pcEnds.push(start !== undefined && end !== undefined ? end : null);
        if (start !== undefined && end !== undefined) {
          out += start;
          continue;
        }
      } else if (p.name === "pc" && p.kind === "close") {
        const end = pcEnds.pop();
        if (end !== undefined && end !== null) {
          out += end;
          continue;
        }
      }
    }
    out += p.tag;
  }
  return out;
}
