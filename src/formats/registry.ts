import { HttpError } from "../common/errors.ts";
import type { WorkCounter } from "../common/work.ts";
import { android } from "./android.ts";
import { arb } from "./arb.ts";
import type { FileContent, FileFormat, FileLanguage } from "./format.ts";
import { json } from "./json.ts";
import { po } from "./po.ts";
import { checkImportSize, checkUnicode, checkXmlCharacters, IMPORT_LIMITS, invalid, tooManyEntries, withoutBom } from "./read.ts";
import { strings } from "./strings.ts";
import { stringsdict } from "./stringsdict.ts";
import { xcstrings } from "./xcstrings.ts";
import { xliff } from "./xliff.ts";
import { yaml } from "./yaml.ts";

/**
 * The file formats (docs/formats.md): the one list everything else is derived from. Adding a
 * format is a file exporting a FileFormat (format.ts), its tests, and one line here.
 */
export const FORMATS = [json, yaml, arb, xliff, po, android, strings, stringsdict, xcstrings] as const;

export type AnyFormat = (typeof FORMATS)[number];
export type FormatName = AnyFormat["name"];
/** A format every release ships and the CDN serves (docs/interface.md §2.6). */
export type BundleFormat = Extract<AnyFormat, { bundle: true }>["name"];

export const FORMAT_NAMES: readonly FormatName[] = FORMATS.map((f) => f.name);

/**
 * The bundle formats, in the list's order: what a publish compiles and records on the release,
 * the CDN's file extensions and the possible `download_urls` keys.
 */
export const BUNDLE_FORMATS: readonly BundleFormat[] = FORMATS.filter((f) => f.bundle).map((f) => f.name as BundleFormat);

const BY_NAME: ReadonlyMap<string, FileFormat> = new Map(FORMATS.map((f) => [f.name, f]));
const BUNDLE_SET: ReadonlySet<string> = new Set(BUNDLE_FORMATS);

export function formatNamed(name: FormatName): FileFormat {
  return BY_NAME.get(name)!;
}

export function isFormatName(name: string): name is FormatName {
  return BY_NAME.has(name);
}

/** A format that holds several languages in one file (XLIFF, `.xcstrings`). */
export function isMultiLanguage(name: FormatName): boolean {
  return formatNamed(name).multiLanguage === true;
}

export function isBundleFormat(name: string): name is BundleFormat {
  return BUNDLE_SET.has(name);
}

/** The CDN's `Content-Type` of each bundle format (docs/product.md §3). */
export const CONTENT_TYPES = Object.fromEntries(FORMATS.filter((f) => f.bundle).map((f) => [f.name, f.contentType])) as Record<BundleFormat, string>;

/** The format whose extension ends `path` (case-insensitive), among `among`; undefined for none. */
export function formatOfPath<N extends FormatName>(path: string, among: readonly N[] = FORMAT_NAMES as readonly N[]): N | undefined {
  const lower = path.toLowerCase();
  return among.find((name) => formatNamed(name).extensions.some((ext) => lower.endsWith(`.${ext}`)));
}

/**
 * The formats a release recorded (the `releases.formats` column), in the order recorded, keeping
 * only bundle formats: what its `download_urls` list and what the CDN serves of it.
 */
export function shippedFormats(recorded: readonly string[]): BundleFormat[] {
  return recorded.filter(isBundleFormat);
}

/**
 * Reads a file of a format: the size bound first, then text that is not Unicode, a leading byte
 * order mark ignored (docs/publishing.md §6); `work`, when given, is charged the reader's steps.
 */
export async function readFile(name: FormatName, content: string, work?: WorkCounter): Promise<FileContent> {
  return readFileAs(formatNamed(name), content, work);
}

/**
 * What every format's reading goes through, so that no reader can forget a bound
 * (docs/formats.md "Reading"): before the format reads anything, the size bound, text that is not
 * Unicode and a leading byte order mark; after, the number of entries (the parsers build every
 * entry of a file anyway, and the size bound bounds them) and the characters XML 1.0 forbids, with
 * their line (a reader may word a character of its own first: a NUL in a `.strings` file is UTF-16
 * without its mark). A reader that fails other than by a ContentError (a parser's own limit, a
 * stack overflow) is a 400 saying so, never a 500.
 */
export async function readFileAs(format: FileFormat, content: string, work?: WorkCounter): Promise<FileContent> {
  checkImportSize(content);
  checkUnicode(content);
  const text = withoutBom(content);
  let read: FileContent;
  try {
    read = await format.read(text, work);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw invalid(`the file could not be read as ${format.label}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let entries = 0;
  for (const language of read.languages) entries += language.entries.length;
  if (entries > IMPORT_LIMITS.entries) throw tooManyEntries();
  checkXmlCharacters(text, work);
  return read;
}

/** A file of one language (the import's and the client's unit): its entries and the locale it names. */
export async function readOneLanguage(name: FormatName, content: string): Promise<FileLanguage & Pick<FileContent, "attributes">> {
  const { languages, attributes } = await readFile(name, content);
  if (languages.length !== 1) throw invalid(`the file holds ${languages.length} languages; import them one language at a time`);
  return attributes === undefined ? languages[0]! : { ...languages[0]!, attributes };
}
