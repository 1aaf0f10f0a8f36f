/**
 * The limits of screenshots (docs/translators.md "Screenshots"), written once. A module that
 * imports nothing: the command-line client and the pages read them without the schemas.
 */

/** An image sent to `POST /screenshots`, in bytes (docs/translators.md). */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;
/** The longest side an image may have, in pixels, read from its header before anything decodes it. */
export const SCREENSHOT_SIDE_MAX_PIXELS = 16_384;
/** A box's coordinates and sizes are pixels of the image, counted from its top left corner. */
export const SCREENSHOT_PIXEL_MIN = 0;
/** A screenshot's name: the file name without its extension, for `screenshots push`. */
export const SCREENSHOT_NAME_MAX_LENGTH = 200;
/** Keys one screenshot shows. */
export const SCREENSHOT_KEYS_MAX = 1000;
/** Screenshots a project holds. */
export const SCREENSHOTS_PER_PROJECT_MAX = 10_000;
/** The image types a screenshot may be, sniffed from its bytes. */
export const SCREENSHOT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
