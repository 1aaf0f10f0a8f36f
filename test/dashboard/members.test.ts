/**
 * Project roles in the pages (docs/dashboard.md "Roles"): a project admin gives a user a role
 * limited to a language on the members page; that translator then sees only their projects and
 * languages, and no control they may not use, at 1280 and 390 px.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, eventually, gridCell, horizontalOverflow, PHONE, useDashboard } from "./browser.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const f = useDashboard();

describe("dashboard: members and roles", () => {
  test("a project admin gives a translator one language; the translator sees only that project and language", async () => {
    const pid = await f.api.project("Roles shop", "en", ["de", "fr"]);
    await f.api.key(pid, "cart.title", { en: "Cart", de: "Warenkorb", fr: "Panier" });
    await f.api.project("Hidden project", "en");
    const lead = await f.api.post("/users", { email: "lead@example.test", name: "Lead", password: "lead-password", role: "member" });
    const tina = await f.api.post("/users", { email: "tina@example.test", name: "Tina", password: "tina-password", role: "member" });
    expect((await f.api.put(`/projects/${pid}/members/${lead.body.id}`, { role: "admin" })).status).toBe(200);

    // The project admin, on the members page.
    const admin = await f.page(DESKTOP, "lead@example.test", "lead-password");
    await admin.page.getByRole("link", { name: "Roles shop" }).waitFor();
    expect(await admin.page.getByRole("link", { name: "Hidden project" }).count()).toBe(0);
    await admin.page.goto(`/dashboard/projects/${pid}/members`);
    const form = admin.page.getByRole("form", { name: "Member role" });
    await form.getByLabel("User").selectOption(tina.body.id);
    await form.getByLabel("Role").selectOption("translator");
    await form.getByLabel(/^de/).check();
    await form.getByRole("button", { name: "Save role" }).click();
    await admin.page.getByRole("row", { name: /Tina/ }).getByText("translator").waitFor();
    const stored = await eventually(async () => {
      const list = (await f.api.get(`/projects/${pid}/members`)).body.items as any[];
      return list.find((m) => m.user.name === "Tina");
    });
    expect(stored).toMatchObject({ role: "translator", languages: ["de"] });
    expect(admin.problems).toEqual([]);

    // A draft that would publish new values in German and French.
    const published = await f.api.post(`/projects/${pid}/releases`, { name: "First", tag: "v1" });
    expect((await f.api.post(`/projects/${pid}/releases/${published.body.id}/publish`)).status).toBe(200);
    const cartKey = (await f.api.get(`/projects/${pid}/keys`)).body.items[0].id;
    await f.api.put(`/projects/${pid}/keys/${cartKey}/translations/de`, { value: "Einkaufswagen" });
    await f.api.put(`/projects/${pid}/keys/${cartKey}/translations/fr`, { value: "Chariot" });
    const draft = await f.api.post(`/projects/${pid}/releases`, { name: "Second", tag: "v2" });

    for (const viewport of [DESKTOP, PHONE]) {
      const { page, problems } = await f.page(viewport, "tina@example.test", "tina-password");
      await page.getByRole("link", { name: "Roles shop" }).waitFor();
      expect(await page.getByRole("link", { name: "Hidden project" }).count()).toBe(0);
      await page.getByText("translator (de)").waitFor();
      await page.getByRole("link", { name: "Roles shop" }).click();
      await page.getByText("Your role").waitFor();
      // Their language and the base language they translate from; no French anywhere.
      await gridCell(page, "de", "cart.title").waitFor();
      expect(await gridCell(page, "fr", "cart.title").count()).toBe(0);
      expect(await page.getByText("Panier").count()).toBe(0);
      // Tabs they cannot use are not there.
      for (const tab of ["API tokens", "Integrations", "Settings", "Members"]) expect(await page.getByRole("link", { name: tab, exact: true }).count()).toBe(0);
      await page.getByRole("link", { name: "Languages", exact: true }).click();
      await page.getByText("Only a publisher or an admin of the project can add languages.").waitFor();
      expect(await page.getByRole("row", { name: /French/ }).count()).toBe(0);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // What the draft would publish: the German change, and French only counted.
      await page.goto(`/dashboard/projects/${pid}/releases/${draft.body.id}`);
      const changes = page.getByRole("region", { name: "What publishing changes" });
      await changes.getByText("Einkaufswagen").waitFor();
      await changes.getByText("1 value changed in languages your role does not cover.").waitFor();
      expect(await page.getByText("Chariot").count()).toBe(0);
      expect(problems).toEqual([]);
    }
  });
  test("a publisher schedules and moves channels in the pages; a project admin reads the project's audit log, not the server's", async () => {
    const pid = await f.api.project("Publishing shop", "en", ["de"]);
    await f.api.key(pid, "cart.title", { en: "Cart", de: "Warenkorb" });
    const v1 = await f.api.post(`/projects/${pid}/releases`, { name: "One", tag: "v1" });
    expect((await f.api.post(`/projects/${pid}/releases/${v1.body.id}/publish`)).status).toBe(200);
    const draft = await f.api.post(`/projects/${pid}/releases`, { name: "Two", tag: "v2" });
    const pat = await f.api.post("/users", { email: "pat@example.test", name: "Pat", password: "pat-password", role: "member" });
    const lead = await f.api.post("/users", { email: "lead2@example.test", name: "Lead Two", password: "lead-password", role: "member" });
    expect((await f.api.put(`/projects/${pid}/members/${pat.body.id}`, { role: "publisher" })).status).toBe(200);
    expect((await f.api.put(`/projects/${pid}/members/${lead.body.id}`, { role: "admin" })).status).toBe(200);

    const publisher = await f.page(DESKTOP, "pat@example.test", "pat-password");
    await publisher.page.goto(`/dashboard/projects/${pid}/releases/${draft.body.id}`);
    const schedule = publisher.page.getByRole("region", { name: "Schedule" });
    await schedule.getByLabel("Publish at").fill("2099-01-01T09:00");
    await schedule.getByRole("button", { name: "Schedule" }).click();
    await schedule.getByText("Publishes at").waitFor();
    await publisher.page.goto(`/dashboard/projects/${pid}/releases`);
    const create = publisher.page.getByRole("region", { name: "Channels" }).getByRole("form", { name: "New channel" });
    await create.getByLabel("Channel").fill("staging");
    await create.getByRole("button", { name: "Create channel" }).click();
    await publisher.page.locator('[data-channel="staging"]').getByRole("link", { name: "One (v1)" }).waitFor();
    expect((await f.api.get(`/projects/${pid}/channels`)).body.items.map((c: any) => c.name)).toEqual(["staging"]);
    expect(publisher.problems).toEqual([]);

    const admin = await f.page(DESKTOP, "lead2@example.test", "lead-password");
    await admin.page.goto(`/dashboard/projects/${pid}/keys`);
    await admin.page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Audit log" }).click();
    await admin.page.getByRole("table", { name: "Audit log" }).getByRole("row", { name: /channel_moved/ }).waitFor();
    expect(await admin.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).count()).toBe(0);
    expect(admin.problems).toEqual([]);
  });
});
