/**
 * Where release files live (src/bundles/layout.ts and files.ts; docs/publishing.md §5): paths are
 * built only from a release's public id and a shipped language code, each checked again, so a
 * corrupt row cannot name a path outside the releases folder; a staged release is moved into
 * place whole, and a folder already there is replaced only when it carries that release's marker.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitStagedRelease, RELEASE_MARKER, releaseMarkerText, ReleaseStaging } from "../../src/bundles/files.ts";
import { bundlePath, releaseDir } from "../../src/bundles/layout.ts";
import { testDir } from "../helpers/app.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = () => {
  const d = testDir("phrasebook-bundles-");
  dirs.push(d);
  return d;
};
const ID = "rel_0123456789abcdefghij";

describe("release file paths", () => {
  test("a release id or language code that is not one cannot name a path (traversal, separators, NUL)", () => {
    const d = "/srv/pb";
    expect(bundlePath(d, ID, "pt-BR", "json")).toBe(`/srv/pb/releases/${ID}/pt-BR.json`);
    for (const id of ["../etc", "rel_../../x", `${ID}/..`, "", "rel_0123456789abcdefghi\u0000"]) expect(() => releaseDir(d, id)).toThrow("not a release id");
    for (const code of ["../de", "de/x", "de.json", "", "d\u0000e", "x".repeat(36)]) expect(() => bundlePath(d, ID, code, "json")).toThrow("not a language code");
  });
});

describe("moving a staged release into place", () => {
  test("the files arrive whole under releases/<id>; the staging folder is gone", async () => {
    const d = dataDir();
    const staging = await ReleaseStaging.create(d, ID);
    await staging.write("de.json", '{"a":"b"}');
    const dir = await staging.commit();
    expect(dir).toBe(releaseDir(d, ID));
    expect(readFileSync(join(dir, "de.json"), "utf8")).toBe('{"a":"b"}');
    expect(readFileSync(join(dir, RELEASE_MARKER), "utf8")).toBe(releaseMarkerText(ID));
    expect(existsSync(staging.path)).toBe(false);
  });

  test("a folder left by an earlier attempt at the same release is replaced; a folder that is not ours stops the move", async () => {
    const d = dataDir();
    mkdirSync(releaseDir(d, ID), { recursive: true });
    writeFileSync(join(releaseDir(d, ID), RELEASE_MARKER), releaseMarkerText(ID));
    writeFileSync(join(releaseDir(d, ID), "stale.json"), "{}");
    const first = await ReleaseStaging.create(d, ID);
    await first.write("en.json", "{}");
    await commitStagedRelease(d, ID, first.path);
    expect(existsSync(join(releaseDir(d, ID), "stale.json"))).toBe(false);

    const other = "rel_abcdefghij0123456789";
    mkdirSync(releaseDir(d, other), { recursive: true });
    writeFileSync(join(releaseDir(d, other), "operator.txt"), "mine"); // no marker: the operator's
    const second = await ReleaseStaging.create(d, other);
    await expect(second.commit()).rejects.toThrow();
    expect(readFileSync(join(releaseDir(d, other), "operator.txt"), "utf8")).toBe("mine");
    await second.discard();
  });
});
