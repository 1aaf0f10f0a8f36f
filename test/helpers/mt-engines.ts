/**
 * Stand-ins for the machine translation engines Phrasebook can call (docs/translators.md "Machine
 * translation"), on a loopback port: LibreTranslate's `POST /translate` (https://libretranslate.com/docs:
 * `{q, source, target, format, api_key}` in, `{translatedText}` out, `q` a string or a list) and an
 * OpenAI-compatible `POST /v1/chat/completions` (`{model, messages}` in, `{choices: [{message:
 * {content}}]}` out), written from each API's documentation. Neither can run here. Each
 * "translates" by upper-casing the words between the markup it was sent, and can misbehave on
 * purpose, as engines do: drop, rename or repeat a placeholder, answer with ICU syntax or markup
 * of its own, answer 500, a body past 1 MB, a redirect, or nothing at all.
 */
export type Misbehaviour = "none" | "drop" | "rename" | "repeat" | "braces" | "keyword" | "markup" | "error" | "huge" | "redirect" | "hang" | "stall" | "garbage";

export interface EngineStandIn {
  url: string;
  /** Every request it got: path, headers and the JSON body. */
  requests: { path: string; headers: Record<string, string>; body: any }[];
  misbehave: Misbehaviour;
  stop(): Promise<void>;
}

const TOKEN = /(<x\s+id="\d+"\/>)/;

/** The stand-in's "translation": words upper-cased, tokens and markup as sent. */
export function fakeTranslate(text: string): string {
  return text
    .split(TOKEN)
    .map((part) => (TOKEN.test(part) ? part : part.replace(/\p{L}+/gu, (w) => w.toUpperCase())))
    .join("");
}

function spoil(text: string, how: Misbehaviour): string {
  switch (how) {
    case "drop":
      return text.replace(TOKEN, "");
    case "rename":
      return text.replace(/<x id="(\d+)"\/>/, '<x id="99"/>');
    case "repeat":
      return text.replace(TOKEN, "$1 $1");
    case "braces":
      return text.replace(TOKEN, "{nom}");
    case "keyword":
      return `${text} {anzahl, Plural, eins {# Datei} andere {# Dateien}}`;
    case "markup":
      return `${text}<img src=x onerror="alert(document.cookie)">`;
    default:
      return text;
  }
}

export function startEngineStandIn(): EngineStandIn {
  const standIn: EngineStandIn = { url: "", requests: [], misbehave: "none", stop: async () => {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const body = await request.json().catch(() => null);
      standIn.requests.push({ path, headers: Object.fromEntries(request.headers), body });
      const how = standIn.misbehave;
      if (how === "hang") return new Promise<Response>(() => {});
      if (how === "error") return Response.json({ error: "the model is overloaded" }, { status: 500 });
      if (path === "/elsewhere") return Response.json({ translatedText: ["FOLLOWED"] });
      if (how === "redirect") return new Response(null, { status: 302, headers: { location: `${standIn.url}/elsewhere` } });
      if (how === "stall") {
        // Headers at once, then a body that never ends.
        return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"translatedText": [')) }), { headers: { "content-type": "application/json" } });
      }
      if (how === "huge") return new Response(`{"translatedText": "${"A".repeat(2 * 1024 * 1024)}"}`, { headers: { "content-type": "application/json" } });
      if (how === "garbage") return new Response("<html>Bad gateway</html>", { headers: { "content-type": "text/html" } });
      if (path === "/translate") {
        const q: string[] = Array.isArray(body?.q) ? body.q : [body?.q];
        const out = q.map((t) => spoil(fakeTranslate(String(t)), how));
        return Response.json({ translatedText: Array.isArray(body?.q) ? out : out[0] });
      }
      if (path === "/v1/chat/completions") {
        const texts: string[] = JSON.parse(body.messages.at(-1).content);
        const content = "```json\n" + JSON.stringify(texts.map((t) => spoil(fakeTranslate(t), how))) + "\n```";
        return Response.json({ id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
      }
      return Response.json({ error: "not found" }, { status: 404 });
    },
  });
  standIn.url = `http://127.0.0.1:${server.port}`;
  standIn.stop = () => server.stop(true);
  return standIn;
}
