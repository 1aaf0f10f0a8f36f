/**
 * Strings like an app's interface for the memory's benchmark (bench/memory.bench.ts): sentences of
 * 2 to 12 words drawn from a vocabulary with a Zipf distribution (a few words very common, most
 * rare), a quarter with a placeholder, and three in ten of them variants of an earlier one (a word
 * changed, added or dropped, a typo, punctuation, a placeholder renamed): the near-duplicates a
 * real project accumulates, which are what fuzzy matches are made of. Seeded: the same strings
 * every run.
 */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = (
  "the a to of your you is in for and this not be on with can file save cancel delete account settings project update error please try again new open close " +
  "name email password select items page more all no yes add remove edit view show hide search filter sort upload download share copy move rename create " +
  "user users team invite members role admin language languages release releases publish draft key keys value values translation translations changes " +
  "saved failed loading done next back continue finish start stop sign in out up help about privacy terms cookies notifications message messages"
).split(" ");
const SYLLABLES = ["ka", "to", "re", "mi", "sa", "lo", "ne", "vi", "du", "pe", "ra", "ti", "on", "an", "el", "is", "ur", "ex", "co", "ma", "li", "ve", "de", "pro", "con", "ter", "ment", "ing", "tion", "al", "er", "ly"];
const PLACEHOLDERS = ["{name}", "{count}", "{file}", "{user}", "{n}", "{date}", "{project}"];

export function vocabulary(r: () => number, size = 6000): string[] {
  const out = new Set(COMMON);
  while (out.size < size) {
    let w = "";
    for (let i = 1 + Math.floor(r() * 3); i > 0; i--) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    out.add(w);
  }
  return [...out];
}

const zipf = (r: () => number, n: number) => Math.min(n - 1, Math.floor(Math.pow(n + 1, r()) - 1));

export function sentence(r: () => number, vocab: string[]): string {
  const words: string[] = [];
  for (let i = 2 + Math.floor(r() * 11); i > 0; i--) words.push(vocab[zipf(r, vocab.length)]!);
  if (r() < 0.25) words.splice(Math.floor(r() * words.length), 0, PLACEHOLDERS[Math.floor(r() * PLACEHOLDERS.length)]!);
  let s = words.join(" ");
  s = s[0]!.toUpperCase() + s.slice(1);
  if (r() < 0.5) s += r() < 0.7 ? "." : r() < 0.5 ? "!" : "?";
  return s;
}

export function variant(r: () => number, s: string, vocab: string[]): string {
  const w = s.split(" ");
  const op = r();
  if (op < 0.3) w[Math.floor(r() * w.length)] = vocab[zipf(r, vocab.length)]!;
  else if (op < 0.5) w.splice(Math.floor(r() * (w.length + 1)), 0, vocab[zipf(r, vocab.length)]!);
  else if (op < 0.6 && w.length > 2) w.splice(Math.floor(r() * w.length), 1);
  else if (op < 0.75) return /[.!?]$/.test(s) ? s.slice(0, -1) : s + ".";
  else if (op < 0.9) {
    // A typo: a letter dropped (never a brace: the strings stay valid messages).
    const i = Math.floor(r() * s.length);
    return /[{}]/.test(s[i]!) ? s : s.slice(0, i) + s.slice(i + 1);
  } else return s.replace(/\{\w+\}/, "{value}");
  return w.join(" ");
}

/** `n` strings; `seed` picks them, `shared` (optional) strings earlier variants may come from. */
export function corpus(seed: number, n: number, shared: string[] = []): string[] {
  const r = seeded(seed);
  const vocab = vocabulary(seeded(1));
  const out: string[] = [];
  while (out.length < n) {
    const pool = shared.length > 0 && (out.length <= 100 || r() < 0.5) ? shared : out;
    if (pool.length > 0 && r() < 0.3) out.push(variant(r, pool[Math.floor(r() * pool.length)]!, vocab));
    else out.push(sentence(r, vocab));
  }
  return out;
}
