// The seats this browser holds, per game: { mine: {seat: token}, invites: {seat: code} }.
// "mine" are the seats played at this screen, with their secret tokens; "invites" are the
// one-time codes of the links the creator hands to friends (a friend's page exchanges its
// code for a token of its own). `storage` is the browser's localStorage (a stand-in in the
// unit tests).
import { api, gamePath } from "./api.js";

const KEY = (id) => `genial.seats.${id}`;

export function seatsFor(id, storage = globalThis.localStorage) {
  try {
    const raw = JSON.parse(storage.getItem(KEY(id)) || "null");
    if (raw && typeof raw === "object") return { mine: raw.mine || {}, invites: raw.invites || {} };
  } catch {
    /* a damaged entry is ignored */
  }
  return { mine: {}, invites: {} };
}

export function saveSeats(id, seats, storage = globalThis.localStorage) {
  storage.setItem(KEY(id), JSON.stringify(seats));
}

// A new game as its creator keeps it: their own seat's token, and the invite codes of the
// other human seats (the server never gives the creator another seat's token).
export function claimSeats(made) {
  const seats = { mine: {}, invites: {} };
  if (made.token) seats.mine[made.seat] = made.token;
  for (const s of made.seats) if (s.invite) seats.invites[s.seat] = s.invite;
  return seats;
}

export function inviteLink(origin, id, code) {
  return `${origin}/game/${encodeURIComponent(id)}#invite=${encodeURIComponent(code)}`;
}

// Takes the seat of an invite: the server answers with a fresh token for this browser only,
// and the invite is spent.
export async function claimInvite(id, code, storage = globalThis.localStorage) {
  const got = await api(gamePath(id, "/claim"), { method: "POST", body: { invite: code } });
  const held = seatsFor(id, storage);
  held.mine[got.seat] = got.token;
  delete held.invites[got.seat];
  saveSeats(id, held, storage);
  return got.seat;
}
