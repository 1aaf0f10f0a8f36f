import type { FormatInfo } from "../shell.ts";

/** Deployment facts the server wrote into the page (src/dashboard/shell.ts ClientConfig). */
export interface Config {
  api_url: string;
  cdn_url: string;
  version: string;
  logo: string;
  /** The format registry's formats (docs/formats.md). */
  formats: FormatInfo[];
}

export const config: Config = JSON.parse(document.getElementById("pb-config")?.textContent ?? "{}");
