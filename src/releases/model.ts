import { Type, type Static } from "@sinclair/typebox";
import { FORMAT_NAMES } from "../formats/registry.ts";
import { LANGUAGE_CODE_MAX_LENGTH, RELEASE_NAME_MAX_LENGTH, RELEASE_REF_MAX_LENGTH, RELEASE_TAG_MAX_LENGTH, SCHEDULE_AT_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/**
 * What the release routes take (docs/architecture.md "Input models"): each limit once, the route
 * schemas built from them, the services' input types from the schemas. The services check what a
 * schema cannot say: a blank name or tag, control characters, a tag already taken.
 */

const Name = Type.String({ maxLength: RELEASE_NAME_MAX_LENGTH });
const Tag = Type.String({ maxLength: RELEASE_TAG_MAX_LENGTH });

export const NewRelease = Type.Object({ name: Name, tag: Tag });
export type NewRelease = Static<typeof NewRelease>;

export const ReleasePatch = Type.Object({ name: Type.Optional(Name), tag: Type.Optional(Tag) });
export type ReleasePatch = Static<typeof ReleasePatch>;

/** A publish may let message errors through, an admin's call (docs/product.md §7); no body is `{}`. */
export const PublishOptions = Type.Optional(Type.Object({ allow_errors: Type.Optional(Type.Boolean()) }));
export type PublishOptions = Static<typeof PublishOptions>;

/** docs/releases.md "Roll back": the new release's name and tag, as for a new draft. */
export const RepublishInput = NewRelease;
export type RepublishInput = NewRelease;

/** docs/releases.md "Channels": where a channel points. */
export const ChannelMove = Type.Object({ release_id: Type.String({ maxLength: RELEASE_REF_MAX_LENGTH }) });
export type ChannelMove = Static<typeof ChannelMove>;

/** docs/releases.md "Diff": the release compared against, `latest` by default. */
export const DiffQuery = Type.Object({ against: Type.Optional(Type.String({ maxLength: RELEASE_REF_MAX_LENGTH })) });
export type DiffQuery = Static<typeof DiffQuery>;

/** docs/releases.md "Scheduled publish": when, as an ISO time in the future. */
export const ScheduleInput = Type.Object({ at: Type.String({ maxLength: SCHEDULE_AT_MAX_LENGTH }) });
export type ScheduleInput = Static<typeof ScheduleInput>;

/**
 * `GET /projects/:pid/releases/:rid/export` (docs/formats.md "Export"): a published release's
 * strings in any format of the registry; `language` may be left out for a format that holds
 * every language (.xcstrings, XLIFF 1.2).
 */
export const ExportQuery = Type.Object({
  /** Required; optional in the schema so that an unknown release is a 404 before a missing format is a 400. */
  format: Type.Optional(Type.Union(FORMAT_NAMES.map((name) => Type.Literal(name)))),
  language: Type.Optional(Type.String({ minLength: 1, maxLength: LANGUAGE_CODE_MAX_LENGTH })),
  xliff_version: Type.Optional(Type.Union([Type.Literal("1.2"), Type.Literal("2.0")])),
});
export type ExportQuery = Static<typeof ExportQuery>;
