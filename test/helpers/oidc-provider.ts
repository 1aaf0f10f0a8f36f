/**
 * A real OpenID provider for the single sign-on tests: the npm `oidc-provider` (a certified
 * OpenID Provider), on loopback, with test clients and accounts (docs/deploy.md "Single sign-on").
 * Its login page is a plain form (a username, a button) that a person fills in Chromium and a
 * test posts over HTTP (`signInAt`). Consent is granted by itself, as a company's provider does for
 * its own applications. Keys are given, so a test can restart the provider with new ones (a
 * rotation) and publish another key set than it signs with (a token signed by an unknown key).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name: string;
  groups: string[];
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
}

export interface ProviderOptions {
  accounts: Record<string, TestAccount>;
  clients: TestClient[];
  /** The port to listen on (a restart keeps its issuer); default a free one. */
  port?: number;
  /** Signing keys (private JWKs); default one new RSA key. */
  keys?: JWK[];
  /**
   * A path the provider is served under, its issuer's path (`/realms/test`, as Keycloak's and
   * Authentik's issuers have one); default none (the issuer is the origin).
   */
  path?: string;
}

export interface TestProvider {
  issuer: string;
  port: number;
  keys: JWK[];
  /** Publish this key set at the JWKS endpoint instead of the provider's own (null: its own again). */
  publishKeys(jwks: { keys: JWK[] } | null): void;
  /** Requests the provider answered, by path (discovery, jwks, token, userinfo...). */
  requests: string[];
  stop(): Promise<void>;
}

/** A new RSA signing key with a kid of its own. */
export async function newSigningKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}

/** The public half of a key set, as a JWKS endpoint publishes it. */
export function publicKeys(keys: JWK[]): { keys: JWK[] } {
  return { keys: keys.map(({ d, p, q, dp, dq, qi, ...pub }) => pub) };
}

function loginForm(uid: string): string {
  return `<!doctype html><html><head><title>Test provider</title></head><body><h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}/login"><label>Username <input name="login" autofocus></label>
<button type="submit">Sign in at the provider</button></form></body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

export async function startProvider(options: ProviderOptions): Promise<TestProvider> {
  const keys = options.keys ?? [await newSigningKey("key-1")];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const prefix = options.path ?? "";
  const issuer = `http://127.0.0.1:${port}${prefix}`;
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({ ...c, grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_post" })),
    jwks: { keys },
    cookies: { keys: ["a test provider's cookie key"] },
    ttl: { Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    scopes: ["openid", "email", "profile", "groups"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    // The claims go into the ID token as well as userinfo, as Keycloak and Entra ID put groups there.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      // The provider's own logout page, plain: its default loads a web font from the internet.
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          ctx.body = `<!doctype html><html><head><title>Sign out</title></head><body><h1>Sign out of the test provider</h1>${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button></body></html>`;
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${prefix}/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = options.accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
    // Consent for the test clients is given by the company, not asked of the person.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile groups");
      await grant.save();
      return grant;
    },
  });
  const requests: string[] = [];
  let published: { keys: JWK[] } | null = null;
  const callback = provider.callback();
  server.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    if (prefix && req.url?.startsWith(`${prefix}/`)) {
      // Mounted under the issuer's path: the provider reads its mount path from `originalUrl`.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = req.url.slice(prefix.length);
    }
    const path = (req.url ?? "/").split("?")[0]!;
    requests.push(`${req.method} ${path}`);
    try {
      const interaction = /^\/interaction\/([^/]+)(\/login)?$/.exec(path);
      if (path === "/jwks" && published) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(published));
      } else if (interaction && req.method === "GET") {
        await provider.interactionDetails(req, res);
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(loginForm(interaction[1]!));
      } else if (interaction && req.method === "POST") {
        const login = (await formBody(req)).get("login") ?? "";
        const result = options.accounts[login] ? { login: { accountId: login } } : { error: "access_denied", error_description: "unknown user" };
        await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      } else {
        callback(req, res);
      }
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  });
  return {
    issuer,
    port,
    keys,
    requests,
    publishKeys: (jwks) => void (published = jwks),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A browser's cookies for one origin, enough to walk through the provider's redirects. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/**
 * Signs `login` in at the provider over HTTP, from the authorization URL on, as a browser would:
 * follows the provider's redirects, fills the login form, and answers where the provider sends
 * the browser back to (the client's redirect URI with `code`, `state` and `iss`).
 */
export async function signInAt(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = "GET";
  let body: string | undefined;
  const origin = new URL(authorizationUrl).origin;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, { method, body, redirect: "manual", headers: { cookie: jar.header(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) } });
    jar.take(res);
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next; // back to the client
      url = next.href;
      method = "GET";
      body = undefined;
      continue;
    }
    const text = await res.text();
    const form = /action="([^"]+)"/.exec(text);
    if (res.status !== 200 || !form) throw new Error(`provider answered ${res.status}: ${text.slice(0, 300)}`);
    url = new URL(form[1]!, url).href;
    method = "POST";
    body = new URLSearchParams({ login }).toString();
  }
  throw new Error("too many redirects at the provider");
}
