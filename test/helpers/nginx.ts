/**
 * Debian's nginx, started by a test on loopback in front of the real server: the layout of
 * docs/deploy/nginx.conf with test ports, the test CA's certificate and every path in a temp dir.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { tempDir } from "./server.ts";

export interface NginxOptions {
  upstreamPort: number;
  publicPort: number;
  cdnPort: number;
  /** PEM text of the certificate and its key. */
  cert: string;
  key: string;
}

export interface Nginx {
  dir: string;
  stop(): Promise<void>;
  errors(): string;
}

export const NGINX_BIN = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => Bun.file(p).size > 0) ?? "nginx";

export function renderConfig(o: NginxOptions, dir: string): string {
  const ssl = `ssl_certificate ${dir}/cert.pem;\n        ssl_certificate_key ${dir}/key.pem;`;
  const proxy = `proxy_pass http://phrasebook;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For $remote_addr;`;
  return `
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    proxy_cache_path ${dir}/cache levels=1:2 keys_zone=phrasebook_cdn:10m max_size=256m inactive=30d use_temp_path=off;
    upstream phrasebook { server 127.0.0.1:${o.upstreamPort}; keepalive 8; }
    server {
        listen 127.0.0.1:${o.publicPort} ssl;
        ${ssl}
        client_max_body_size 16m;
        location / {
            ${proxy}
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
        }
    }
    server {
        listen 127.0.0.1:${o.cdnPort} ssl;
        ${ssl}
        location /p/ {
            ${proxy}
            proxy_cache phrasebook_cdn;
            proxy_cache_key $uri$is_args$args;
            proxy_cache_revalidate on;
            proxy_cache_lock on;
            proxy_cache_use_stale updating error timeout;
            proxy_set_header Accept-Encoding $http_accept_encoding;
            add_header X-Cache-Status $upstream_cache_status always;
        }
        location / { return 404; }
    }
}
`;
}

export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const dir = tempDir("phrasebook-nginx-");
  mkdirSync(join(dir, "cache"));
  writeFileSync(join(dir, "cert.pem"), options.cert);
  writeFileSync(join(dir, "key.pem"), options.key, { mode: 0o600 });
  writeFileSync(join(dir, "nginx.conf"), renderConfig(options, dir));
  const proc: Subprocess = Bun.spawn([NGINX_BIN, "-p", dir, "-e", join(dir, "error.log"), "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const errors = () => {
    try {
      return require("node:fs").readFileSync(join(dir, "error.log"), "utf8") as string;
    } catch {
      return "";
    }
  };
  // Ready when both ports accept connections.
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${errors()}`);
    const up = await Promise.all(
      [options.publicPort, options.cdnPort].map((port) =>
        Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {}, open(s) { s.end(); } } }).then(() => true, () => false),
      ),
    );
    if (up.every(Boolean)) break;
    await Bun.sleep(50);
  }
  return {
    dir,
    errors,
    async stop() {
      proc.kill("SIGQUIT");
      await proc.exited;
    },
  };
}
