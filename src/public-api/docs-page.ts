/**
 * The browsable API reference at /v1/docs (CONTRACTS 2), rendered from the OpenAPI document itself
 * so the two cannot disagree. One self-contained HTML page: inline styles, no scripts, no fonts,
 * no images, nothing fetched from anywhere (its Content-Security-Policy forbids it too).
 */
type Obj = Record<string, any>;

export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const esc = (s: unknown) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Inline code spans in descriptions: `x` becomes <code>x</code>, after escaping. */
const prose = (s: unknown) => esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

function typeOf(schema: Obj): string {
  if (!schema) return "";
  if (schema.$ref) return `<a href="#schema-${esc(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  if (schema.const !== undefined) return `${esc(schema.type ?? "")} <code>${esc(JSON.stringify(schema.const))}</code>`;
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  let t = esc(schema.type ?? "any");
  if (schema.format) t += ` (${esc(schema.format)})`;
  if (schema.enum) t += `: ${schema.enum.map((v: unknown) => `<code>${esc(v)}</code>`).join(", ")}`;
  return t;
}

function fieldsTable(schema: Obj): string {
  if (schema.type !== "object" || !schema.properties) return `<p>${typeOf(schema)}</p>`;
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(schema.properties as Obj)
    .map(([name, s]) => {
      const nested = s.type === "object" && s.properties ? fieldsTable(s) : "";
      return `<tr><td><code>${esc(name)}</code></td><td>${typeOf(s)}</td><td>${required.has(name) ? "yes" : "no"}</td><td>${prose(s.description)}${nested}</td></tr>`;
    })
    .join("");
  return `<table><thead><tr><th>field</th><th>type</th><th>always present</th><th>notes</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operation(path: string, method: string, op: Obj, doc: Obj): string {
  const params = (op.parameters ?? []) as Obj[];
  const paramTable = params.length
    ? `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th><th>default</th><th>notes</th></tr></thead><tbody>${params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${typeOf(p.schema)}</td><td>${
              p.schema?.default !== undefined ? `<code>${esc(p.schema.default)}</code>` : ""
            }</td><td>${prose(p.description)}</td></tr>`,
        )
        .join("")}</tbody></table>`
    : "";
  const responses = Object.entries(op.responses as Obj)
    .map(([status, r]) => {
      const resolved = r.$ref ? doc.components.responses[refName(r.$ref)] : r;
      const schema = resolved.content?.["application/json"]?.schema;
      const example = resolved.content?.["application/json"]?.example;
      return `<tr><td><code>${esc(status)}</code></td><td>${prose(resolved.description)}${
        example ? ` <code>${esc(JSON.stringify(example))}</code>` : ""
      }</td><td>${schema ? typeOf(schema) : ""}</td></tr>`;
    })
    .join("");
  const id = `op-${esc(op.operationId)}`;
  return `<section id="${id}"><h3><span class="verb">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p><strong>${prose(op.summary)}.</strong> ${prose(op.description)}</p>${paramTable}
<h4>Responses</h4><table><thead><tr><th>status</th><th>meaning</th><th>body</th></tr></thead><tbody>${responses}</tbody></table></section>`;
}

export function renderDocsPage(doc: Obj): string {
  const ops: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Obj)) {
    for (const [method, op] of Object.entries(item as Obj)) {
      ops.push(operation(path, method, op, doc));
      toc.push(`<li><a href="#op-${esc(op.operationId)}">${esc(method.toUpperCase())} ${esc(path)}</a></li>`);
    }
  }
  const schemas = Object.entries(doc.components.schemas as Obj)
    .map(([name, s]) => `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3><p>${prose(s.description)}</p>${fieldsTable(s)}</section>`)
    .join("");
  const headers = Object.entries(doc.components.headers as Obj)
    .map(([name, h]) => `<tr><td><code>${esc(name)}</code></td><td>${prose(h.description)}</td></tr>`)
    .join("");
  const base = doc.servers[0].url;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem 4rem;color:#1d2125;background:#fff}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
h3{margin-top:2rem}code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f4f6;padding:.05rem .3rem;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td table{margin:.4rem 0 0}.verb{background:#0969da;color:#fff;border-radius:3px;padding:.05rem .4rem;font-size:.85rem}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;border-radius:4px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}th{background:#161b22}th,td{border-color:#30363d}code,pre{background:#161b22}}
</style></head><body>
<h1>${esc(doc.info.title)} <small>v${esc(doc.info.version)}</small></h1>
<p>${prose(doc.info.description)}</p>
<p>Base URL: <code>${esc(base)}</code>. Machine-readable description: <a href="openapi.json">openapi.json</a> (OpenAPI ${esc(doc.openapi)}).</p>
<pre>curl -H "Authorization: Bearer $TOKEN" ${esc(base)}/releases?page_size=5</pre>
<h2>Endpoints</h2><ul>${toc.join("")}</ul>${ops.join("")}
<h2>Response headers</h2><p>The <code>X-RateLimit-*</code> headers come with every response; <code>Retry-After</code> with a 429.</p><table><tbody>${headers}</tbody></table>
<h2>Schemas</h2>${schemas}
</body></html>`;
}
