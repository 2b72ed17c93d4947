// The bag's fingerprint: a game between people shows at its start a SHA-256 over a secret salt,
// the seed and the bag; this browser keeps the first one it saw, and at the end checks it
// against the salt, seed and bag the server reveals (genial.web.commitment has the layout).
import { h } from "./dom.js";

const KEY = (id) => `genial.commitment.${id}`;

// Keeps the first fingerprint seen for a game: one shown later cannot replace it.
export function remember(id, commitment) {
  if (!commitment) return;
  try {
    if (!localStorage.getItem(KEY(id))) localStorage.setItem(KEY(id), commitment);
  } catch {
    /* storage full or disabled: the end screen compares with the server's copy */
  }
}

function hexBytes(hex) {
  return Uint8Array.from(hex.match(/[0-9a-f]{2}/gi) || [], (pair) => parseInt(pair, 16));
}

// SHA-256( salt || ASCII(seed + ":" + bag) ), as hex.
export async function digest(reveal) {
  const salt = hexBytes(reveal.salt);
  const text = new TextEncoder().encode(`${reveal.seed}:${reveal.bag}`);
  const data = new Uint8Array(salt.length + text.length);
  data.set(salt);
  data.set(text, salt.length);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

// { ok, text }: whether the revealed bag is the one this browser was shown at the start.
export async function verify(id, st) {
  if (!st.reveal) return { ok: false, text: "The bag is revealed when the game is over." };
  if (!(window.crypto && crypto.subtle)) {
    return { ok: false, text: "This browser checks fingerprints only over https or on localhost." };
  }
  let kept = null;
  try {
    kept = localStorage.getItem(KEY(id));
  } catch {
    kept = null;
  }
  const expected = kept || st.commitment;
  const got = await digest(st.reveal);
  if (got === expected && st.commitment === expected) {
    return {
      ok: true,
      text: kept
        ? "✓ The bag played is the one fingerprinted at the start (checked against this browser's copy)."
        : "✓ The bag matches the server's fingerprint (this browser did not see the start).",
    };
  }
  return { ok: false, text: "✗ The revealed bag does NOT match the fingerprint shown at the start." };
}

// The card beside the board: the fingerprint, and who joined or was replaced.
export function fairnessCard(id, st) {
  remember(id, st.commitment);
  const events = (st.events || []).filter((e) => e.type === "replaced");
  if (!st.commitment && !events.length) return null;
  const name = (i) => (st.seats[i] ? st.seats[i].name : `seat ${i + 1}`);
  return h(
    "div",
    { class: "card fairness" },
    st.commitment
      ? h(
          "p",
          { class: "muted fingerprint" },
          "Bag fingerprint ",
          h("code", { title: st.commitment, "data-commitment": st.commitment }, `${st.commitment.slice(0, 12)}…`),
          st.over ? "" : " (checked at the end)",
        )
      : null,
    events.map((e) =>
      h(
        "p",
        { class: "event replaced", "data-seat": e.seat },
        `${name(e.by)} gave ${name(e.seat)}'s seat a new invite at move ${e.move + 1}.`,
      ),
    ),
  );
}

// The end screen's action: checks the bag and says what it found.
export function verifyButton(id, st) {
  if (!st.reveal) return null;
  const out = h("p", { class: "verify-result", role: "status" });
  const button = h(
    "button",
    {
      type: "button",
      id: "verify",
      onclick: async () => {
        const { ok, text } = await verify(id, st);
        out.textContent = text;
        out.classList.toggle("ok", ok);
        out.classList.toggle("error", !ok);
      },
    },
    "Verify the bag",
  );
  return [button, out];
}
