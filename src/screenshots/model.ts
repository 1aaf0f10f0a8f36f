import { Type, type Static } from "@sinclair/typebox";
import { KEY_MAX_LENGTH } from "../authoring/limits.ts";
import { SCREENSHOT_KEYS_MAX, SCREENSHOT_NAME_MAX_LENGTH, SCREENSHOT_PIXEL_MIN, SCREENSHOT_SIDE_MAX_PIXELS } from "./limits.ts";
export * from "./limits.ts";

/** What the screenshot routes take (docs/architecture.md "Input models"; docs/translators.md "Screenshots"). */

/** `POST /projects/:pid/screenshots?name=NAME` (the body is the image). */
export const ScreenshotUploadQuery = Type.Object({ name: Type.Optional(Type.String({ maxLength: SCREENSHOT_NAME_MAX_LENGTH })) });
export type ScreenshotUploadQuery = Static<typeof ScreenshotUploadQuery>;

const Pixel = Type.Integer({ minimum: SCREENSHOT_PIXEL_MIN, maximum: SCREENSHOT_SIDE_MAX_PIXELS });

/** Where a key is on the image, in its pixels. */
export const Box = Type.Object({ x: Pixel, y: Pixel, width: Pixel, height: Pixel });
export type Box = Static<typeof Box>;

/** `PUT /projects/:pid/screenshots/:sid/keys`: the keys it shows, each maybe with its box; replaces the list. */
export const ScreenshotKeysInput = Type.Object({
  keys: Type.Array(Type.Object({ key: Type.String({ maxLength: KEY_MAX_LENGTH }), box: Type.Optional(Type.Union([Box, Type.Null()])) }), { maxItems: SCREENSHOT_KEYS_MAX }),
});
export type ScreenshotKeysInput = Static<typeof ScreenshotKeysInput>;
