import { Memoirist } from "memoirist";

/**
 * Route labels from a fixed set (docs/deploy.md "Monitoring", docs/decisions.md "Operations"): a
 * request is labelled with the pattern of the route it matches, among the routes the app declares
 * (the framework's routes and the CDN's two patterns), or `unmatched`. Labels never carry a slug, an
 * id or anything else the client wrote, so no request, however odd its path, can add a label:
 * metrics keep a bounded number of series and logs never hold a capability URL.
 *
 * Matching is Elysia's own router (memoirist), so a path is labelled by the route that answers it.
 */
export interface DeclaredRoute {
  /** An HTTP method, or "ALL" for a route that takes every method. */
  method: string;
  /** The pattern as declared: `/v1/releases/:release_id`, `/dashboard/*`. */
  path: string;
}

export const UNMATCHED = "unmatched";

/** Methods counted under their own name; the few others HTTP servers accept are counted as OTHER. */
export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"] as const;
export type MethodLabel = (typeof METHODS)[number];
export const OTHER_METHOD = METHODS.length - 1;

/** The index in METHODS of a request method (an exact match: methods are case-sensitive). */
export function methodIndex(method: string): number {
  switch (method) {
    case "GET":
      return 0;
    case "HEAD":
      return 1;
    case "POST":
      return 2;
    case "PUT":
      return 3;
    case "PATCH":
      return 4;
    case "DELETE":
      return 5;
    case "OPTIONS":
      return 6;
    default:
      return OTHER_METHOD;
  }
}

export class RouteLabels {
  private readonly router = new Memoirist<string>();
  private readonly known = new Set<string>([UNMATCHED]);

  constructor(routes: readonly DeclaredRoute[] = []) {
    for (const route of routes) this.add(route);
  }

  /** Every label a request can get. */
  get labels(): ReadonlySet<string> {
    return this.known;
  }

  add(route: DeclaredRoute): void {
    // A pattern that clashes with one already declared (two parameter names in one place) keeps
    // the first: labelling must never stop the app from starting.
    this.router.add(route.method, route.path, route.path, { ignoreError: true });
    this.known.add(route.path);
  }

  /**
   * The label of a request: its route's pattern, or `unmatched`. `path` is the raw path without
   * the query. HEAD is answered by GET routes, as the framework does.
   */
  of(method: string, path: string): string {
    const found =
      this.router.find(method, path) ?? (method === "HEAD" ? this.router.find("GET", path) : null) ?? this.router.find("ALL", path);
    return found === null ? UNMATCHED : found.store;
  }
}
