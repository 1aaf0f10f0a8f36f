/**
 * Scalar's standalone API reference (from its npm package, about 4 MB), built into the executable
 * as a file: Bun resolves this import to the file's path (inside the executable once compiled), and
 * the bytes are read only when a browser asks for them. The name's hash is taken at build time.
 */
import { fileSha256 } from "../common/embed.ts" with { type: "macro" };
// @ts-expect-error TypeScript has no type for a file import; Bun gives the path as a string.
import scalarPath from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };

export const SCALAR_PATH: string = scalarPath;
export const SCALAR_SHA256: string = fileSha256("node_modules/@scalar/api-reference/dist/browser/standalone.js");
