import type { WorkCounter } from "../common/work.ts";
import type { MessageArgument } from "../messages/read.ts";

/**
 * The shape every file format exports (docs/formats.md): one file per format under src/formats/,
 * named in one list (registry.ts), and everything else (the CDN's paths and content types,
 * `download_urls`, the import's `format`, the client's `--format`, the dashboard's choices) derived
 * from that list.
 */
export interface FileFormat<Name extends string = string> {
  /** The import's `format`, the client's `--format`, and for a bundle format its `download_urls` key. */
  readonly name: Name;
  /** How the dashboard's import page names it. */
  readonly label: string;
  /**
   * File name extensions, lower case, without the dot; the first is the one files are written
   * with. A bundle format's first extension is its name: its CDN file is `<code>.<name>`
   * (docs/interface.md §4.5 writes `{ext}` where `download_urls` has the name).
   */
  readonly extensions: readonly [string, ...string[]];
  /** The CDN's `Content-Type` for a bundle format; what an export would be sent as for the others. */
  readonly contentType: string;
  /**
   * A bundle format: every release compiles every language into it and the CDN serves the files
   * (docs/interface.md §2.6). The others are read (and, later, written) on import and export only.
   */
  readonly bundle: boolean;
  /**
   * The format holds several languages in one file (XLIFF's source and target, a String Catalog's
   * every language): its import sets each language it holds, and `pull` writes one file
   * (docs/formats.md "Languages").
   */
  readonly multiLanguage?: boolean;
  /**
   * The format has a mark for a string not to be translated (`Entry.translatable`): a base-language
   * import in it sets the key's flag from the file, and clears it where the mark is gone; a format
   * without one leaves the flag as it is (docs/formats.md "Not translatable").
   */
  readonly marksTranslatable?: boolean;
  /**
   * Reads a file: its entries, per language it holds. Throws a ContentError (read.ts) saying what
   * is wrong and where. The size bound, text that is not Unicode and a leading byte order mark are
   * handled before, and the number of entries and the characters no file may hold after, for every
   * format alike (registry.ts `readFileAs`). Asynchronous so that a format's parser is loaded when
   * a file of it is first read, not by every command that names the format (docs/architecture.md
   * "Loading only what is used"). Linear in the length of `content`: `work`, when given, is
   * charged its steps (docs/formats.md "XML and bad files").
   */
  read(content: string, work?: WorkCounter): Promise<FileContent>;
  /**
   * Writes one file of what a release holds: for a format of one language per file (all of today's)
   * `input.languages` holds exactly that one. Publishing calls it for every bundle format over the
   * same `WriteInput`, whose quoted forms are made once and shared (bundle.ts).
   */
  write(input: WriteInput): string;
  /**
   * A bundle format's writer, piece by piece into `out` (texts.ts TextSink): a publish encodes
   * every language's files straight into buffers it keeps, with no file-sized string in between
   * (docs/formats.md "Speed"). `write` is the same writer collecting into a string.
   */
  writeTo?(input: WriteInput, out: TextSink): void;
}

/** One message of a file, as the file states it. */
export interface Entry {
  /** The key, or what the file names the message by (an ARB message name), as written. */
  key: string;
  value: string;
  /** The key's context: ARB `@name.description`, PO comments, XLIFF notes, Android and `.strings` comments. */
  description?: string;
  /**
   * The source text the file gives beside a translation (a PO `msgid`, an XLIFF `<source>`): the
   * import compares it with the stored base string and reports a difference (docs/formats.md
   * "Languages"). A PO entry whose `msgstr` is empty has the value "" and this source.
   */
  source?: string;
  /**
   * The file marks the message as not to be translated: Android `translatable="false"`, XLIFF
   * `translate="no"`, a catalog's `shouldTranslate: false`, ARB `"x-translatable": false`
   * (docs/formats.md "Not translatable"). Absent: translatable, or the format has no such mark.
   */
  translatable?: false;
  /**
   * What else the file says about this message, to be kept with the key: a base ARB's whole `@key`
   * entry (placeholders with `type`, `format` and `example`; docs/formats.md "ARB metadata").
   */
  attributes?: Readonly<Record<string, unknown>>;
}

/** The entries of one language of a file. */
export interface FileLanguage {
  /** The language the file names for them (ARB `@@locale`), as written; absent when it names none. */
  locale?: string;
  entries: Entry[];
}

/** What `read` gives: one language for a one-language format, several for XLIFF or .xcstrings. */
export interface FileContent {
  languages: FileLanguage[];
  /** File-level attributes (ARB `@@` entries other than `@@locale`); see `Entry.attributes`. */
  attributes?: Readonly<Record<string, unknown>>;
  /** The locale whose entries are the source text (XLIFF's source language, a catalog's `sourceLanguage`). */
  source?: string;
}

/** The key set of a release or an export: every key in code-point order, with its context. */
export interface BundleKeys {
  keys: string[];
  contexts: Map<string, string | null>;
  /** Keys' stored ARB `@key` entries (JSON objects as text; docs/formats.md "ARB metadata"), where a base ARB push gave one. */
  arbMetadata?: Map<string, string>;
  /** The base ARB's `@@` attributes kept (a JSON object as text), written into every ARB file. */
  arbAttributes?: string | null;
  /** The keys marked not to be translated (docs/formats.md "Not translatable"); none when absent. */
  notTranslatable?: ReadonlySet<string>;
}

/** One language's values, aligned with `BundleKeys.keys`; undefined where a key has no value. */
export interface BundleLanguage {
  code: string;
  values: (string | undefined)[];
  /**
   * Each value's arguments from the checked parse (publishing reads every value once, for the
   * checks and for these); undefined where a value has none. Without it a format that needs them
   * reads each value itself.
   */
  arguments?: (readonly MessageArgument[] | undefined)[];
}

/**
 * A key set with the forms every format shares, made once per key set however many languages and
 * formats are written from it (docs/formats.md "Speed").
 */
export interface KeyTexts extends BundleKeys {
  /** `JSON.stringify` of each key. */
  json: string[];
  /** Each key's context, aligned with `keys`. */
  contextOf: (string | null)[];
  /** Whether each key is to be translated (false: marked not to be), aligned with `keys`. */
  translatableOf: boolean[];
  /**
   * A form of the key set a format makes for itself (YAML's quoted keys, ARB's message names),
   * built on first use and kept for the next language.
   */
  own<T>(format: string, build: () => T): T;
}

/**
 * A language as the writers take it. Values are quoted as they are written, and only those that
 * need an escape are copied (texts.ts `addJsonString`, docs/formats.md "Speed").
 */
export type LanguageTexts = BundleLanguage;

/** What `write` takes: the key set, the language(s) of the file, and how to read a message. */
export interface WriteInput {
  keys: KeyTexts;
  languages: readonly LanguageTexts[];
  /**
   * The base language, for the formats that write the source text beside a translation (PO's
   * `msgid`, XLIFF's `<source>`) or every language in one file (`.xcstrings`, where `languages`
   * then holds the others). Absent for the bundle formats, which never need it.
   */
  source?: LanguageTexts;
  /** Choices of a format's writer (the client's `--xliff-version`). */
  options?: { xliffVersion?: "1.2" | "2.0" };
  /**
   * The arguments of a value the language does not carry them for, read in the project's message
   * syntax (docs/product.md §7). Given by the caller, so formats need not load the message parser.
   */
  argumentsOf(value: string): readonly MessageArgument[];
  /**
   * Charged what writing costs when given (a step per value and per placeholder written, and what
   * reading a value costs), so tests prove linear work by counting (docs/architecture.md "Tests").
   */
  work?: WorkCounter;
}

/**
 * Where a bundle format's writer puts its file, piece by piece (`writeTo` above): a string
 * (texts.ts TextPieces) or UTF-8 bytes (texts.ts Utf8Bytes, a publish's files). Pieces are written as they are, never
 * glued first: text glued by `+` or a template literal makes a rope, and a whole file joined into
 * one string is a fresh copy of many megabytes; on a virtual machine, memory touched for the first
 * time costs more than the writing itself (docs/formats.md "Speed").
 */
export interface TextSink {
  add(piece: string): void;
}
