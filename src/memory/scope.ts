/**
 * The projects a person may read, for what the memory shows them (docs/translators.md "Translation
 * memory": suggestions come from every project the person may read): either only the projects
 * listed, or every project but those listed. A project whose reader is a translator or reviewer
 * of other languages is listed as unreadable for a language it does not cover.
 */
export interface ReadScope {
  /** Only these projects (row ids); null: every project but `except`. */
  only: ReadonlySet<number> | null;
  except: ReadonlySet<number>;
}

export const EVERY_PROJECT: ReadScope = { only: null, except: new Set() };

export function scopeHolds(scope: ReadScope, projectId: number): boolean {
  return scope.only ? scope.only.has(projectId) : !scope.except.has(projectId);
}

/** The language a tag names, lower case: `en` for `en-GB`. */
export function primaryLanguage(code: string): string {
  return code.split("-")[0]!.toLowerCase();
}
