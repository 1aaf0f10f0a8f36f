/**
 * What a burst of failed sign-ins costs the server (docs/deploy.md "Security notes", limits table:
 * failed sign-ins), against the floor of the same number of password checks the limit lets
 * through, sent one after another. test/adversarial/logins.test.ts counts the checks (at most 5 of
 * 60 run); this is the CPU figure beside it. Each round uses a new address, so every burst starts
 * with a clean count. Server CPU (user + system, all threads) comes from /proc.
 * Usage: PHRASEBOOK_BIN=dist/phrasebook bun bench/lib/logins-driver.ts   (prints a Markdown table)
 */
import { LOGIN_FAILURES_PER_ACCOUNT } from "../../src/accounts/login-throttle.ts";
import { burst, jsonRequest, statusCounts } from "../../test/adversarial/burst.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer } from "../../test/helpers/server.ts";
import { cpuSeconds } from "./proc.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BURST = Number(process.env.BENCH_BURST ?? 60);

const server = await startServer({ env: { PHRASEBOOK_TRUSTED_PROXIES: "127.0.0.1", PHRASEBOOK_LOG_REQUESTS: "false" } });
const login = (password: string, from: string) => jsonRequest("POST", "/dashboard/api/login", { email: ADMIN_EMAIL, password }, { "x-forwarded-for": from });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

try {
  const floor: number[] = [];
  const bursts: number[] = [];
  const answers: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // The floor: as many wrong passwords as the limit checks, one at a time, from an address of their own.
    let before = cpuSeconds(server.proc.pid);
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await burst(server.port, [login(`floor ${i}`, `198.51.100.${round}`)]);
    floor.push(cpuSeconds(server.proc.pid) - before);
    before = cpuSeconds(server.proc.pid);
    const replies = await burst(server.port, Array.from({ length: BURST }, (_, i) => login(i === BURST >> 1 ? ADMIN_PASSWORD : `wrong guess ${i}`, `203.0.113.${round}`)));
    bursts.push(cpuSeconds(server.proc.pid) - before);
    answers.push(JSON.stringify(statusCounts(replies)));
  }
  const s = (x: number) => `${x.toFixed(2)} s`;
  console.log(`| measure (median of ${ROUNDS} rounds) | server CPU |`);
  console.log(`|---|---:|`);
  console.log(`| floor: ${LOGIN_FAILURES_PER_ACCOUNT} wrong passwords, one after another | ${s(median(floor))} |`);
  console.log(`| ${BURST} sign-ins for one account from one address at once | ${s(median(bursts))} |`);
  console.log(`| ratio of the burst to the floor | ${(median(bursts) / median(floor)).toFixed(2)} |`);
  console.log(`\nRounds (floor, burst): ${floor.map((f, i) => `${s(f)}, ${s(bursts[i]!)} ${answers[i]}`).join("; ")}.`);
} finally {
  await server.stop();
}
