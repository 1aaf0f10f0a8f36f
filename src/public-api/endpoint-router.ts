import type { TObject } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Memoirist, type FindResult } from "memoirist";
import type { Endpoint } from "./endpoints.ts";
import { routeQueryObject } from "./query.ts";

/**
 * A path segment decoded as Elysia's router decodes a path parameter: every escape, or null when
 * one is malformed (`%ZZ`), so that such an id names no release (docs/interface.md §4.3).
 */
export function decodeSegment(raw: string): string | null {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** A path's endpoint and its parameters, decoded (`decodeSegment`). */
export type EndpointMatch = FindResult<Endpoint>;

/**
 * The endpoints' paths and input schemas as the fast path reads them (docs/public-api.md "Speed"):
 * the same patterns matched by the same router as Elysia's (memoirist), and the same `t` schemas
 * checked by TypeBox's compiled checker on the input as the router hands it to a route. Paths are
 * exact: Elysia also sends a path with a trailing slash to a route, which the route then refuses
 * with this router's verdict (service.ts).
 */
export class EndpointRouter {
  private readonly router = new Memoirist<Endpoint>({ onParam: decodeSegment });
  /** Compiled on the first request that needs each (none is needed to start). */
  private readonly checks = new Map<TObject, TypeCheck<TObject>>();

  constructor(endpoints: readonly Endpoint[]) {
    for (const endpoint of endpoints) this.router.add("GET", endpoint.path, endpoint);
  }

  /** The endpoint a path (without its query) names, or null. */
  match(path: string): EndpointMatch | null {
    return this.router.find("GET", path);
  }

  /**
   * Whether a request's input passes the schemas its endpoint's route declares, given as the router
   * gives it (a parameter given once a string, one given twice an array). Never looser than the
   * router: the router also coerces, which only lets more through, to the routes.
   */
  passes(endpoint: Endpoint, params: EndpointMatch["params"], query: Map<string, string[]>): boolean {
    if (endpoint.query !== undefined && !this.check(endpoint.query).Check(routeQueryObject(query))) return false;
    return endpoint.params === undefined || this.check(endpoint.params).Check(params);
  }

  private check(schema: TObject): TypeCheck<TObject> {
    let compiled = this.checks.get(schema);
    if (compiled === undefined) this.checks.set(schema, (compiled = TypeCompiler.Compile(schema)));
    return compiled;
  }
}
