import type { CommentView } from "../../../comments/comments.ts";
import { COMMENT_MAX_LENGTH } from "../../../comments/limits.ts";
import { can, del, get, post, projectPath, session } from "../api.ts";
import { h, time, uid } from "../dom.ts";
import { message } from "../ui.ts";
import type { KeyContext } from "./context-panels.ts";
import { frame } from "./help-panels.ts";

/**
 * A key's comments on the translate page (docs/translators.md "Comments"): open ones first, each
 * with who wrote it and when, its text as text; resolve (anyone who may comment) and delete (its
 * author, a project admin); a form to write one, about this language or the key as a whole.
 */
function commentItem(key: KeyContext, c: CommentView, reload: () => void): HTMLElement {
  const path = projectPath(key.pid, "keys", key.item.id, "comments", c.id);
  const mine = c.by.kind === "user" && c.by.id === session.user?.id;
  const act = (label: string, run: () => Promise<unknown>) =>
    h("button", { type: "button", class: "link small", onclick: () => void run().then(reload, (err) => alert(message(err))) }, label);
  return h(
    "li",
    { class: c.resolved_at ? "comment resolved" : "comment" },
    h("p", { class: "comment-body" }, c.body),
    h(
      "p",
      { class: "muted small" },
      c.by.name,
      c.language_code ? ` · ${c.language_code}` : "",
      " · ",
      time(c.at),
      c.resolved_at ? [" · resolved ", time(c.resolved_at)] : null,
      key.help.page.canComment && !c.resolved_at ? [" · ", act("Resolve", () => post(`${path}/resolve`))] : null,
      mine || can("admin") ? [" · ", act("Delete", () => del(path))] : null,
    ),
  );
}

function commentForm(key: KeyContext, reload: () => void): HTMLElement {
  const text = h("textarea", { id: uid(), rows: 2, maxlength: COMMENT_MAX_LENGTH, "aria-label": `Comment on ${key.item.key}`, placeholder: "Ask about this string, or note something for the next person" });
  const about = h("input", { type: "checkbox", id: uid(), checked: true });
  const note = h("span", { class: "muted small", role: "status" });
  const send = async () => {
    if (text.value.trim() === "") return;
    note.textContent = "Sending…";
    try {
      await post(projectPath(key.pid, "keys", key.item.id, "comments"), { body: text.value, language_code: about.checked ? key.target.code : null });
      text.value = "";
      note.textContent = "";
      reload();
    } catch (err) {
      note.textContent = message(err);
    }
  };
  // Ctrl+Enter in the comment sends it, and is not the card's save-and-next.
  text.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  });
  return h(
    "div",
    { class: "comment-form" },
    text,
    h("div", { class: "actions" }, h("label", { for: about.id, class: "small" }, about, ` About ${key.target.name}`), h("button", { type: "button", onclick: () => void send() }, "Comment"), note),
  );
}

export function commentsPanel(key: KeyContext): HTMLElement {
  const f = frame("Comments", "comments");
  const list = h("ul", { class: "comment-list" });
  const load = () =>
    get<{ items: CommentView[] }>(projectPath(key.pid, "keys", key.item.id, "comments")).then(
      ({ items }) => {
        const ordered = [...items.filter((c) => !c.resolved_at), ...items.filter((c) => c.resolved_at)];
        list.replaceChildren(...ordered.map((c) => commentItem(key, c, load)));
        f.fill(ordered.length > 0 ? list : h("p", { class: "muted small" }, "No comments."), key.help.page.canComment ? commentForm(key, load) : null);
      },
      (err) => f.fill(h("p", { class: "muted small" }, message(err))),
    );
  void load();
  return f.element;
}
