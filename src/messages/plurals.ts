/**
 * Each language's plural categories, from `Intl.PluralRules` (the CLDR data the runtime carries,
 * as apps' own formatters use it), with sample numbers to tell a translator what a category is
 * for (docs/messages.md "Plural categories").
 */
export const PLURAL_CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;

/** Whole numbers a category is checked against: 0-1000 and the round numbers some languages treat apart. */
const INTEGER_SAMPLES = [
  ...Array.from({ length: 1001 }, (_, i) => i),
  10_000, 100_000, 1_000_000, 2_000_000, 3_000_000, 10_000_000, 100_000_000, 1_000_000_000,
];
const FRACTION_SAMPLES = [0.5, 1.5, 2.5, 0.1, 1.1, 2.1, 5.5, 10.5, 21.5, 0.25];

/** Memoised findings per language: bounded, since a catalog may live as long as a page. */
const MEMO_MAX = 5_000;

export class PluralRulesOf {
  readonly categories: readonly string[];
  private samplesByCategory?: Map<string, { integers: number[]; fraction?: number }>;
  private readonly texts = new Map<string, string>();
  private readonly lists = new Map<string, string[]>();

  /** A text about this language's categories, made once (checks word the same finding many times). */
  memo(key: string, make: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) this.texts.set(key, (text = make()));
    return text;
  }

  /** Findings about one shape of plural in this language, made once; at most a few thousand shapes are kept. */
  memoList(key: string, make: () => string[]): string[] {
    let list = this.lists.get(key);
    if (list === undefined) {
      list = make();
      if (this.lists.size < MEMO_MAX) this.lists.set(key, list);
    }
    return list;
  }

  constructor(private readonly rules: Intl.PluralRules) {
    this.categories = rules.resolvedOptions().pluralCategories;
  }

  private reached?: Set<string>;

  /**
   * Whether no whole number below 1,000,000 and no number with one decimal selects the category
   * (French, Italian, Spanish, Portuguese and Catalan `many`, which only 1,000,000 and its
   * multiples take): a plural needs no case for it, since every runtime falls back to `other`
   * (docs/messages.md "Plural categories"). Every whole number below 10,000 (CLDR's rules look at
   * the last digits and at small ranges), the multiples of 10,000 below a million, and 0.0 to 99.9.
   */
  rarelyReached(category: string): boolean {
    if (!this.reached) {
      const reached = new Set<string>();
      for (let n = 0; n < 10_000; n++) reached.add(this.rules.select(n));
      for (let n = 10_000; n < 1_000_000; n += 10_000) reached.add(this.rules.select(n));
      const { locale, type } = this.rules.resolvedOptions();
      if (type !== "ordinal") {
        const decimal = new Intl.PluralRules(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
        for (let k = 0; k < 1000; k++) reached.add(decimal.select(k / 10));
      }
      this.reached = reached;
    }
    return this.categories.includes(category) && !this.reached.has(category);
  }

  /** Whole numbers in 0-1000 (and some round ones above) that select `category`, and a fraction that does. */
  samples(category: string): { integers: number[]; fraction?: number } {
    if (!this.samplesByCategory) {
      const map = new Map<string, { integers: number[]; fraction?: number }>();
      for (const c of this.categories) map.set(c, { integers: [] });
      for (const n of INTEGER_SAMPLES) map.get(this.rules.select(n))?.integers.push(n);
      for (const n of FRACTION_SAMPLES) {
        const entry = map.get(this.rules.select(n));
        if (entry && entry.fraction === undefined) entry.fraction = n;
      }
      this.samplesByCategory = map;
    }
    return this.samplesByCategory.get(category) ?? { integers: [] };
  }
}

export interface LanguagePlurals {
  cardinal: PluralRulesOf;
  ordinal: PluralRulesOf;
}

/**
 * Plural rules by language code, made once per code. `null` for a code the runtime has no data for:
 * `Intl.PluralRules` would silently use its default language instead, and a check against the
 * wrong language's categories would only mislead.
 */
export class PluralCatalog {
  private readonly byCode = new Map<string, LanguagePlurals | null>();

  of(code: string): LanguagePlurals | null {
    let found = this.byCode.get(code);
    if (found === undefined) {
      found = null;
      try {
        const cardinal = new Intl.PluralRules(code);
        const resolved = cardinal.resolvedOptions().locale.split("-")[0]!.toLowerCase();
        if (resolved === code.split("-")[0]!.toLowerCase()) {
          found = { cardinal: new PluralRulesOf(cardinal), ordinal: new PluralRulesOf(new Intl.PluralRules(code, { type: "ordinal" })) };
        }
      } catch {
        // not a language tag the runtime accepts: no plural check
      }
      this.byCode.set(code, found);
    }
    return found;
  }
}
