import { refusalSentence } from "../../../accounts/sign-in/refusals.ts";
import { get, post, session, type User } from "../api.ts";
import { config } from "../config.ts";
import { h, type Child } from "../dom.ts";
import { setTitle } from "../layout.ts";
import { BASE, navigate, type Ctx } from "../router.ts";
import { field, form, input } from "../ui.ts";
import { PASSWORD_MIN_LENGTH } from "../../../accounts/limits.ts";

/** Login, logout, and the first-run screen that creates the admin (docs/dashboard-api.md). */

interface SessionReply {
  user: User;
  csrf_token: string;
}

function startSession(reply: SessionReply, next: string | null): void {
  session.user = reply.user;
  session.csrf = reply.csrf_token;
  // Only a dashboard path: a crafted ?next= must not send a fresh login elsewhere.
  const target = next && next.startsWith(`${BASE}/`) && !next.startsWith("//") ? next : BASE;
  navigate(target, { replace: true });
}

function card(title: string, lead: string, body: HTMLElement): HTMLElement {
  return h(
    "main",
    { class: "auth" },
    h(
      "div",
      { class: "auth-card card" },
      h("img", { src: config.logo, alt: "", width: 40, height: 40 }),
      h("h1", null, title),
      h("p", { class: "muted" }, lead),
      body,
    ),
  );
}

/** What the server offers (GET /auth-methods, docs/dashboard-api.md "Single sign-on"). */
interface AuthMethods {
  password: boolean;
  oidc: { name: string; start_url: string } | null;
}

export async function loginPage(ctx: Ctx) {
  if (session.user) return navigate("/", { replace: true });
  const setup = await get<{ needed: boolean }>("/setup");
  if (setup.needed) return navigate("/setup", { replace: true });
  const methods = await get<AuthMethods>("/auth-methods");
  setTitle("Log in");
  const next = ctx.query.get("next");
  const email = input({ name: "email", type: "email", autocomplete: "username", required: true, autofocus: true });
  const passwordForm = form(
    {
      submit: "Log in",
      label: "Log in",
      onSubmit: async (data) => startSession(await post<SessionReply>("/login", { email: data.email, password: data.password }), next),
    },
    field("Email", email),
    field("Password", input({ name: "password", type: "password", autocomplete: "current-password", required: true })),
  );
  const ssoError = ctx.query.get("sso_error");
  // A refused single sign-on comes back as a reason code; the page shows its own sentence for it,
  // never text from its URL (docs/dashboard.md "Login").
  const refusal = ssoError !== null ? h("p", { class: "error", role: "alert" }, refusalSentence(ssoError)) : null;
  let sso: HTMLElement | null = null;
  if (methods.oidc) {
    // Back to the page asked for after the provider (only a dashboard path, as for a password login).
    const target = next && next.startsWith(`${BASE}/`) && !next.startsWith("//") ? next : BASE;
    sso = h("a", { class: "button-link sso", href: `${methods.oidc.start_url}?next=${encodeURIComponent(target)}` }, `Sign in with ${methods.oidc.name}`);
  }
  let body: Child;
  if (methods.password) {
    body = [refusal, sso, sso ? h("p", { class: "muted small or" }, "or with your email and password") : null, passwordForm];
    queueMicrotask(() => email.focus());
  } else {
    // Password sign-in is off: only break-glass accounts use the form, kept out of the way (docs/dashboard.md "Login").
    passwordForm.hidden = true;
    const reveal = h("button", { type: "button", class: "link small" }, "Sign in with a break-glass account");
    reveal.addEventListener("click", () => {
      reveal.hidden = true;
      passwordForm.hidden = false;
      email.focus();
    });
    body = [refusal, sso, h("p", { class: "small" }, reveal), passwordForm];
  }
  return card("Log in to Phrasebook", "Translations for your apps, on your own server.", h("div", null, body));
}

export async function setupPage() {
  const setup = await get<{ needed: boolean }>("/setup");
  if (!setup.needed) return navigate(session.user ? "/" : "/login", { replace: true });
  setTitle("Welcome");
  const name = input({ name: "name", autocomplete: "name", required: true, autofocus: true });
  const body = form(
    {
      submit: "Create admin and continue",
      label: "Create the first admin",
      onSubmit: async (data) => startSession(await post<SessionReply>("/setup", { name: data.name, email: data.email, password: data.password }), null),
    },
    field("Your name", name),
    field("Email", input({ name: "email", type: "email", autocomplete: "username", required: true })),
    field("Password", input({ name: "password", type: "password", autocomplete: "new-password", minlength: PASSWORD_MIN_LENGTH, required: true }), `At least ${PASSWORD_MIN_LENGTH} characters.`),
  );
  queueMicrotask(() => name.focus());
  return card(
    "Welcome to Phrasebook",
    "No account exists yet. Create the first admin; you can add teammates afterwards under Users.",
    body,
  );
}
