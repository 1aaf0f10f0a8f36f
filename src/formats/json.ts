/**
 * JSON bundles (docs/interface.md §2.6, docs/product.md §3): a flat object mapping each key,
 * exactly as authored, to its string, sorted by key. Written by hand rather than with
 * JSON.stringify(object), because an object puts integer-like keys ("10", "2") first and would
 * break the sort order. The line and document builders take already-quoted strings so a publish
 * quotes each key once for all its languages.
 */
export function jsonLine(keyJson: string, valueJson: string): string {
  return `  ${keyJson}: ${valueJson}`;
}

export function jsonDocument(lines: string[]): string {
  return lines.length === 0 ? "{}\n" : `{\n${lines.join(",\n")}\n}\n`;
}
