import { Type, type Static } from "@sinclair/typebox";
import { FORMAT_NAMES, type FormatName } from "../formats/registry.ts";
import { BUILD_FILE_MAX_LENGTH, BUILD_FILES_MAX, BUILD_FILES_MIN, BUILD_NAME_MAX_LENGTH } from "./limits.ts";
export * from "./limits.ts";

/**
 * What delivery takes as input (docs/architecture.md "Input models"): an app build's base files
 * (docs/delivery.md "App builds").
 */

/** A base file in any format of the registry that holds one language (docs/formats.md). */
const FileFormatName = Type.Union(FORMAT_NAMES.map((name) => Type.Literal(name)));

export const NewBuild = Type.Object({
  name: Type.Optional(Type.String({ maxLength: BUILD_NAME_MAX_LENGTH })),
  files: Type.Array(Type.Object({ format: FileFormatName, content: Type.String({ maxLength: BUILD_FILE_MAX_LENGTH }) }), { minItems: BUILD_FILES_MIN, maxItems: BUILD_FILES_MAX }),
});
export type NewBuild = Omit<Static<typeof NewBuild>, "files"> & { files: { format: FormatName; content: string }[] };
