/**
 * The release pages' operations (docs/releases.md, docs/dashboard.md "Releases"), in Chromium at
 * 1280 and 390 px: the diff before the publish button, rolling back (republished-from), channels
 * (create, move, rotate, delete), and the schedule (set, cancel, and the error of a blocked one).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS * 2);

const f = useDashboard();

async function published(pid: string, tag: string): Promise<any> {
  const rid = (await f.api.post(`/projects/${pid}/releases`, { name: `Release ${tag}`, tag })).body.id;
  return (await f.api.post(`/projects/${pid}/releases/${rid}/publish`)).body;
}

async function setDe(pid: string, key: string, value: string): Promise<void> {
  const keys = (await f.api.get(`/projects/${pid}/keys`)).body.items;
  const id = keys.find((k: any) => k.key === key).id;
  expect((await f.api.put(`/projects/${pid}/keys/${id}/translations/de`, { value })).status).toBe(200);
}

/** `YYYY-MM-DDTHH:MM` in the browser's zone (Chromium runs in the test's zone), for a datetime-local input. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

describe("dashboard: release operations", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`the diff before publishing, rolling back, and republished-from (${viewport.width} px)`, async () => {
      const pid = await f.api.project(`Ops ${viewport.width}`, "en", ["de"]);
      await f.api.key(pid, "hello", { en: "Hello", de: "Hallo" });
      const v1 = await published(pid, "v1");
      await setDe(pid, "hello", "Hallo KAPUTT");
      await published(pid, "v2");
      await setDe(pid, "hello", "Guten Tag");
      const draft = (await f.api.post(`/projects/${pid}/releases`, { name: "Next", tag: "v3" })).body.id;
      const { page, problems } = await f.page(viewport);

      // A draft shows what publishing it would change, and the confirmation says it again.
      await page.goto(`/dashboard/projects/${pid}/releases/${draft}`);
      const changes = page.getByRole("region", { name: "What publishing changes" });
      await changes.getByText("Against latest (v2): 0 keys added, 0 keys removed, 1 value changed.").waitFor();
      expect(await changes.getByRole("row", { name: /hello/ }).textContent()).toContain("Hallo KAPUTTGuten Tag");
      await page.getByRole("button", { name: "Publish…" }).click();
      expect(await page.getByRole("dialog").textContent()).toContain("1 value changed");
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      expect(await horizontalOverflow(page)).toBe(0);

      // Roll back to v1: a new release with v1's files, and latest serves them.
      await page.goto(`/dashboard/projects/${pid}/releases/${v1.id}`);
      await page.getByRole("region", { name: "Changes against latest" }).waitFor();
      await page.getByRole("button", { name: "Roll back to this…" }).click();
      await page.getByRole("dialog").getByLabel("Tag").fill(`v1-back`);
      await page.getByRole("dialog").getByRole("button", { name: "Republish now" }).click();
      await page.getByText("Republished from").waitFor();
      await page.getByRole("link", { name: "Release v1" }).waitFor();
      const list = (await f.api.get(`/projects/${pid}/releases`)).body.items;
      const back = list.find((r: any) => r.tag === "v1-back");
      expect(back).toMatchObject({ status: "published", republished_from: v1.id });
      const pinned = v1.languages.find((l: any) => l.code === "de").download_urls.json as string;
      expect(await (await fetch(pinned.replace(`/r/${v1.slug}/`, "/r/latest/"))).text()).toBe(await (await fetch(pinned)).text());
      expect(await horizontalOverflow(page)).toBe(0);

      // The release list shows each release's name, status and when it went out without scrolling sideways, on a phone too.
      await page.goto(`/dashboard/projects/${pid}/releases`);
      const table = page.locator("section", { has: page.getByRole("heading", { name: "Releases", exact: true }) }).getByRole("table");
      await table.getByRole("row", { name: /v1-back/ }).waitFor();
      expect(await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth)).toBe(0);
      expect(await table.getByRole("columnheader", { name: "Published" }).isVisible()).toBe(true);
      expect(problems).toEqual([]);
    });

    test(`channels: create, move, rotate, delete (${viewport.width} px)`, async () => {
      const pid = await f.api.project(`Channels ${viewport.width}`, "en", ["de"]);
      await f.api.key(pid, "hello", { en: "Hello", de: "Hallo" });
      const v1 = await published(pid, "v1");
      await setDe(pid, "hello", "Servus");
      const v2 = await published(pid, "v2");
      const { page, problems } = await f.page(viewport);
      await page.goto(`/dashboard/projects/${pid}/releases`);
      const channels = page.getByRole("region", { name: "Channels" });
      await channels.getByText("No channels yet.").waitFor();
      const create = channels.getByRole("form", { name: "New channel" });
      await create.getByLabel("Channel").fill("staging");
      await create.getByLabel("Release").selectOption(v1.id);
      await create.getByRole("button", { name: "Create channel" }).click();
      const card = page.locator('[data-channel="staging"]');
      await card.getByRole("link", { name: "Release v1 (v1)" }).waitFor();
      const url = await card.getByLabel("staging URL", { exact: true }).inputValue();
      expect(url).toContain("/c/");
      expect(await (await fetch(url.replace(/\/[^/]+$/, "/de.json"))).json()).toEqual({ hello: "Hallo" });
      expect(await horizontalOverflow(page)).toBe(0);

      await card.getByRole("form", { name: "Move channel staging" }).getByLabel("Release").selectOption(v2.id);
      await card.getByRole("button", { name: "Move" }).click();
      await page.locator('[data-channel="staging"]').getByRole("link", { name: "Release v2 (v2)" }).waitFor();
      expect(await (await fetch(url.replace(/\/[^/]+$/, "/de.json"))).json()).toEqual({ hello: "Servus" });

      await page.locator('[data-channel="staging"]').getByRole("button", { name: "Rotate slug…" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Rotate slug" }).click();
      await eventually(async () => ((await fetch(url)).status === 404 ? true : undefined));
      await page.locator('[data-channel="staging"]').getByRole("button", { name: "Delete…" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete channel" }).click();
      await channels.getByText("No channels yet.").waitFor();
      expect((await f.api.get(`/projects/${pid}/channels`)).body.items).toEqual([]);
      expect(problems).toEqual([]);
    });

    test(`a publisher (project role) schedules and moves channels; the schedule names its exact time; a viewer sees no form (${viewport.width} px)`, async () => {
      const pid = await f.api.project(`Publisher ${viewport.width}`, "en", ["de"]);
      await f.api.key(pid, "hello", { en: "Hello", de: "Hallo" });
      const v1 = await published(pid, "v1");
      const draft = (await f.api.post(`/projects/${pid}/releases`, { name: "Later", tag: "later" })).body.id;
      const people: Record<string, string> = {};
      for (const role of ["publisher", "viewer"]) {
        const email = `${role}-${viewport.width}@example.test`;
        const made = await f.api.post("/users", { email, name: `${role} ${viewport.width}`, password: `${role} password`, role: "member" });
        expect((await f.api.put(`/projects/${pid}/members/${made.body.id}`, { role })).status).toBe(200);
        people[role] = email;
      }
      const { page, problems } = await f.page(viewport, people.publisher, "publisher password");
      await page.goto(`/dashboard/projects/${pid}/releases/${draft}`);
      const schedule = page.getByRole("region", { name: "Schedule" });
      await schedule.getByText("Not scheduled.").waitFor();
      const at = Date.now() + 48 * 3_600_000;
      await schedule.getByLabel("Publish at").fill(localInput(at));
      await schedule.getByRole("button", { name: "Schedule" }).click();
      const said = schedule.getByText(/^Publishes at/);
      await said.waitFor();
      // The exact time (with its year and zone), not only how soon.
      expect(await said.textContent()).toMatch(new RegExp(`^Publishes at .*${new Date(at).getFullYear()}.*\\(in 2 days\\), checked like any publish`));
      expect((await f.api.get(`/projects/${pid}/releases/${draft}`)).body.scheduled_at).toBeDefined();
      // Rescheduling starts from the time set, not from an empty field.
      expect(await schedule.getByLabel("Publish at").inputValue()).toBe(localInput(at));
      await schedule.getByRole("button", { name: "Reschedule" }).waitFor();
      expect(await horizontalOverflow(page)).toBe(0);

      await page.goto(`/dashboard/projects/${pid}/releases`);
      const create = page.getByRole("region", { name: "Channels" }).getByRole("form", { name: "New channel" });
      await create.getByLabel("Channel").fill("staging");
      await create.getByLabel("Release").selectOption(v1.id);
      await create.getByRole("button", { name: "Create channel" }).click();
      await page.locator('[data-channel="staging"]').getByRole("button", { name: "Move" }).waitFor();
      expect((await f.api.get(`/projects/${pid}/channels`)).body.items.map((c: any) => [c.name, c.release_id])).toEqual([["staging", v1.id]]);
      // Deleting is a publisher's; a new slug, like every slug, a project admin's.
      await page.locator('[data-channel="staging"]').getByRole("button", { name: "Delete…" }).waitFor();
      expect(await page.locator('[data-channel="staging"]').getByRole("button", { name: "Rotate slug…" }).count()).toBe(0);

      const viewer = await f.page(viewport, people.viewer, "viewer password");
      await viewer.page.goto(`/dashboard/projects/${pid}/releases`);
      await viewer.page.locator('[data-channel="staging"]').waitFor();
      expect(await viewer.page.getByRole("form", { name: "New channel" }).count()).toBe(0);
      expect(await viewer.page.locator('[data-channel="staging"]').getByRole("button", { name: "Move" }).count()).toBe(0);
      await viewer.page.goto(`/dashboard/projects/${pid}/releases/${draft}`);
      await viewer.page.getByRole("region", { name: "Schedule" }).getByText(/^Publishes at/).waitFor();
      expect(await viewer.page.getByLabel("Publish at").count()).toBe(0);
      expect([...problems, ...viewer.problems]).toEqual([]);
    });

    test(`the schedule: set, cancel, and the error of a blocked one (${viewport.width} px)`, async () => {
      const pid = await f.api.project(`Schedule ${viewport.width}`, "en", ["de"]);
      await f.api.key(pid, "hello", { en: "Hello {name}", de: "Hallo {name}" });
      const draft = (await f.api.post(`/projects/${pid}/releases`, { name: "Later", tag: "later" })).body.id;
      const { page, problems } = await f.page(viewport);
      const releasePage = `/dashboard/projects/${pid}/releases/${draft}`;
      await page.goto(releasePage);
      const schedule = page.getByRole("region", { name: "Schedule" });
      await schedule.getByText("Not scheduled.").waitFor();
      await schedule.getByLabel("Publish at").fill(localInput(Date.now() + 24 * 3_600_000));
      await schedule.getByRole("button", { name: "Schedule" }).click();
      await schedule.getByText(/^Publishes at/).waitFor();
      expect((await f.api.get(`/projects/${pid}/releases/${draft}`)).body.scheduled_at).toBeDefined();
      expect(await horizontalOverflow(page)).toBe(0);
      await schedule.getByRole("button", { name: "Cancel schedule" }).click();
      await schedule.getByText("Not scheduled.").waitFor();

      // A schedule that comes due while a message has an error: the page says why it did not publish.
      await setDe(pid, "hello", "Hallo {nam");
      expect((await f.api.put(`/projects/${pid}/releases/${draft}/schedule`, { at: new Date(Date.now() + 1000).toISOString() })).status).toBe(200);
      await eventually(async () => ((await f.api.get(`/projects/${pid}/releases/${draft}`)).body.schedule_error ? true : undefined));
      await page.goto(releasePage);
      await page.getByText("The scheduled publish did not happen: 1 error in a message blocks publishing").waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(problems).toEqual([]);
    });
  }
});
