import { get, post, session, type User } from "../api.ts";
import { config } from "../config.ts";
import { h } from "../dom.ts";
import { setTitle } from "../layout.ts";
import { BASE, navigate, type Ctx } from "../router.ts";
import { field, form, input } from "../ui.ts";

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

export async function loginPage(ctx: Ctx) {
  if (session.user) return navigate("/", { replace: true });
  const setup = await get<{ needed: boolean }>("/setup");
  if (setup.needed) return navigate("/setup", { replace: true });
  setTitle("Log in");
  const email = input({ name: "email", type: "email", autocomplete: "username", required: true, autofocus: true });
  const body = form(
    {
      submit: "Log in",
      label: "Log in",
      onSubmit: async (data) => startSession(await post<SessionReply>("/login", { email: data.email, password: data.password }), ctx.query.get("next")),
    },
    field("Email", email),
    field("Password", input({ name: "password", type: "password", autocomplete: "current-password", required: true })),
  );
  queueMicrotask(() => email.focus());
  return card("Log in to Phrasebook", "Translations for your apps, on your own server.", body);
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
    field("Password", input({ name: "password", type: "password", autocomplete: "new-password", minlength: 8, required: true }), "At least 8 characters."),
  );
  queueMicrotask(() => name.focus());
  return card(
    "Welcome to Phrasebook",
    "No account exists yet. Create the first admin; you can add teammates afterwards under Users.",
    body,
  );
}
