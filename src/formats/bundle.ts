import type { WorkCounter } from "../common/work.ts";
import { readMessage, type MessageSyntax } from "../messages/read.ts";
import type { BundleKeys, BundleLanguage, FileFormat, WriteInput } from "./format.ts";
import { BUNDLE_FORMATS, formatNamed, type BundleFormat } from "./registry.ts";
import { keyTexts, languageTexts, type Utf8Bytes } from "./texts.ts";

const BUNDLE_WRITERS: readonly (readonly [BundleFormat, FileFormat])[] = BUNDLE_FORMATS.map((name) => [name, formatNamed(name)]);

/**
 * One language's file in every bundle format, with identical content (docs/interface.md §2.6).
 * Each key is quoted once per key set and each value once per language, for all the formats
 * (texts.ts, docs/formats.md "Speed"). Keys without a value in the language are left out
 * (docs/product.md §3); `syntax` is the project's message syntax, for values whose arguments
 * `lang` does not carry. A `work` counter, when given, is charged what writing costs (format.ts
 * WriteInput; test/formats/bundle.test.ts holds it to the input's length).
 */
export function compileLanguage(keySet: BundleKeys, lang: BundleLanguage, syntax: MessageSyntax = "icu", work?: WorkCounter): Record<BundleFormat, string> {
  const input = writeInput(keySet, lang, syntax, work);
  const files = {} as Record<BundleFormat, string>;
  for (const [name, format] of BUNDLE_WRITERS) files[name] = format.write(input);
  return files;
}

/**
 * The same files as `compileLanguage`, as UTF-8 bytes through `into`'s buffers (a publish keeps
 * them from one language to the next, and gives each a drain that writes to the file,
 * docs/formats.md "Speed"). The caller resets each buffer before and ends it after.
 */
export function compileLanguageInto(keySet: BundleKeys, lang: BundleLanguage, syntax: MessageSyntax, into: Record<BundleFormat, Utf8Bytes>): void {
  const input = writeInput(keySet, lang, syntax);
  for (const [name, format] of BUNDLE_WRITERS) {
    const out = into[name];
    if (format.writeTo) format.writeTo(input, out);
    else out.add(format.write(input));
  }
}

function writeInput(keySet: BundleKeys, lang: BundleLanguage, syntax: MessageSyntax, work?: WorkCounter): WriteInput {
  const argumentsOf = (value: string) => readMessage(value, syntax, work).arguments;
  return { keys: keyTexts(keySet), languages: [languageTexts(lang)], argumentsOf, work };
}
