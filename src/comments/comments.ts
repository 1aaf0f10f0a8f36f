import { and, asc, count, eq } from "drizzle-orm";
import { findKey } from "../authoring/keys.ts";
import type { Actor } from "../changes/actor.ts";
import { iso } from "../common/clock.ts";
import { conflict, forbidden, invalidField, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { comments, languages, type CommentRow, type ProjectRow } from "../storage/schema.ts";
import { COMMENTS_PER_KEY_MAX, type NewComment } from "./model.ts";

/**
 * Comments on a key (docs/translators.md "Comments"): plain text, about the key or one of its
 * languages, by a person (or a token), resolved by anyone who may comment, deleted by its author
 * or a project admin. Shown as text, never as markup: the pages set them with textContent.
 */
export interface CommentView {
  id: string;
  body: string;
  language_code: string | null;
  by: { kind: "user" | "token"; id: string; name: string };
  at: string;
  resolved_at: string | null;
}

function commentView(row: CommentRow): CommentView {
  return {
    id: row.publicId,
    body: row.body,
    language_code: row.languageCode,
    by: { kind: row.byKind, id: row.byPublicId, name: row.byName },
    at: iso(row.createdAt),
    resolved_at: iso(row.resolvedAt),
  };
}

export function listComments(db: Db, project: ProjectRow, keyPublicId: string, visible: ReadonlySet<string> | null): CommentView[] {
  const key = findKey(db, project, keyPublicId);
  return db
    .select()
    .from(comments)
    .where(eq(comments.keyId, key.id))
    .orderBy(asc(comments.id))
    .all()
    .filter((c) => c.languageCode === null || visible === null || visible.has(c.languageCode.toLowerCase()))
    .map(commentView);
}

/** Control characters but line breaks and tabs: a comment is text of several lines. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function addComment({ db, clock }: ServiceDeps, project: ProjectRow, keyPublicId: string, input: NewComment, actor: Actor, visible: ReadonlySet<string> | null): CommentView {
  const key = findKey(db, project, keyPublicId);
  const body = input.body.replace(/\r\n?/g, "\n");
  if (body.trim() === "") throw invalidField("body", "must not be empty");
  if (CONTROL.test(body)) throw invalidField("body", "must not contain control characters");
  let languageCode: string | null = null;
  if (input.language_code != null && input.language_code.trim() !== "") {
    const wanted = input.language_code.trim().toLowerCase();
    const lang = db.select({ code: languages.code }).from(languages).where(eq(languages.projectId, project.id)).all().find((l) => l.code.toLowerCase() === wanted);
    if (!lang) throw invalidField("language_code", `${input.language_code.slice(0, 40)} is not a language of this project`);
    if (visible !== null && !visible.has(wanted)) throw forbidden(`your role in this project does not cover ${lang.code}`);
    languageCode = lang.code;
  }
  return db.transaction(() => {
    const n = db.select({ n: count() }).from(comments).where(eq(comments.keyId, key.id)).get()!.n;
    if (n >= COMMENTS_PER_KEY_MAX) throw conflict(`key "${key.key}" has ${COMMENTS_PER_KEY_MAX} comments, its most; delete resolved ones first`);
    const row = db
      .insert(comments)
      .values({ publicId: newId("cmt"), keyId: key.id, languageCode, body, byKind: actor.kind, byPublicId: actor.publicId, byName: actor.name, createdAt: clock.now() })
      .returning()
      .get();
    return commentView(row);
  });
}

function findComment(db: Db, project: ProjectRow, keyPublicId: string, commentId: string): CommentRow {
  const key = findKey(db, project, keyPublicId);
  const row = db.select().from(comments).where(and(eq(comments.keyId, key.id), eq(comments.publicId, commentId))).get();
  if (!row) throw notFound("comment not found");
  return row;
}

/** Marks a comment resolved (again: no change). */
export function resolveComment({ db, clock }: ServiceDeps, project: ProjectRow, keyPublicId: string, commentId: string): CommentView {
  const row = findComment(db, project, keyPublicId, commentId);
  if (row.resolvedAt !== null) return commentView(row);
  const updated = db.transaction(() => db.update(comments).set({ resolvedAt: clock.now() }).where(eq(comments.id, row.id)).returning().get()!);
  return commentView(updated);
}

/** Deletes a comment: its author's, or anyone's for a project admin (`moderates`). */
export function deleteComment({ db }: ServiceDeps, project: ProjectRow, keyPublicId: string, commentId: string, actor: Actor, moderates: boolean): void {
  const row = findComment(db, project, keyPublicId, commentId);
  const own = row.byKind === actor.kind && row.byPublicId === actor.publicId;
  if (!own && !moderates) throw forbidden("only the comment's author or a project admin may delete it");
  db.transaction(() => db.delete(comments).where(eq(comments.id, row.id)).run());
}
