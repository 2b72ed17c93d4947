// The seat tokens this browser holds, per game: { mine: {seat: token}, invites: {seat: token} }.
// "mine" are the seats played at this screen; "invites" are links the creator hands to
// friends. `storage` is the browser's localStorage (a stand-in in the unit tests).

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

// The new game's tokens: the first human seat plays here; the others become invite links
// (or also play here, for pass-and-play).
export function claimSeats(made, hotseat) {
  const seats = { mine: {}, invites: {} };
  let first = true;
  for (const s of made.seats) {
    if (!s.token) continue;
    if (first || hotseat) seats.mine[s.seat] = s.token;
    else seats.invites[s.seat] = s.token;
    first = false;
  }
  return seats;
}

export function inviteLink(origin, id, token) {
  return `${origin}/game/${encodeURIComponent(id)}#t=${encodeURIComponent(token)}`;
}
