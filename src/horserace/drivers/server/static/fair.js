"use strict";
// The player's part of the fair dice, done by the page: before play it makes a random seed
// (or takes the one typed), keeps it in localStorage and sends only its SHA-256 (`commit`);
// once play starts and every commitment is shown, it sends the seed itself (`reveal`), and
// the server checks it against the commitment. SHA-256 is written out here because the
// browser's own (crypto.subtle) exists only on https or localhost pages.
const FairSeed = (() => {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  // SHA-256 of a text of printable ASCII (a seed is nothing else), as 64 hex digits.
  function sha256(text) {
    const bytes = Array.from(text, (c) => c.charCodeAt(0) & 0xff);
    const bits = bytes.length * 8;
    bytes.push(0x80);
    while (bytes.length % 64 !== 56) bytes.push(0);
    for (let shift = 56; shift >= 0; shift -= 8) bytes.push(shift >= 32 ? 0 : (bits >>> shift) & 0xff);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    for (let block = 0; block < bytes.length; block += 64) {
      for (let i = 0; i < 16; i++) {
        const at = block + 4 * i;
        w[i] = (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
      }
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
  }

  const key = (table, seat) => `horserace.seed.${table}.${seat}`;

  function randomSeed() {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // Before play: commit to this seat's seed (made now if this browser has none yet).
  function commit(table, seat, send, typed) {
    let seed = typed || localStorage.getItem(key(table, seat));
    if (!seed) seed = randomSeed();
    localStorage.setItem(key(table, seat), seed);
    send({ type: "commit", commitment: sha256(seed) });
  }

  // Play has started and the commitments are shown: reveal this seat's seed if it was
  // committed to and is not in yet (a seed this browser does not hold is left alone).
  function reveal(table, seat, reveal, send) {
    if (!reveal || seat === null) return false;
    const commitment = reveal.commitments[String(seat)];
    if (!commitment || reveal.revealed.includes(seat)) return false;
    const seed = localStorage.getItem(key(table, seat));
    if (!seed || sha256(seed) !== commitment) return false;
    return send({ type: "reveal", seed });
  }

  return { sha256, commit, reveal };
})();
