// Talking to the server, and the seat tokens this browser holds.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

// Kept per game: { mine: {seat: token}, invites: {seat: code} }. "mine" are the seats played
// at this screen, with their secret tokens; "invites" are the one-time codes of the links the
// creator hands to friends (a friend's page exchanges its code for a token of its own).
const KEY = (id) => `genial.seats.${id}`;

export function seatsFor(id) {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY(id)) || "null");
    if (raw && typeof raw === "object") return { mine: raw.mine || {}, invites: raw.invites || {} };
  } catch {
    /* a damaged entry is ignored */
  }
  return { mine: {}, invites: {} };
}

export function saveSeats(id, seats) {
  localStorage.setItem(KEY(id), JSON.stringify(seats));
}

export function inviteLink(id, code) {
  return `${location.origin}/game/${encodeURIComponent(id)}#invite=${encodeURIComponent(code)}`;
}

// Takes the seat of an invite: the server answers with a fresh token for this browser only.
export async function claimInvite(id, code) {
  const got = await api(`/api/games/${encodeURIComponent(id)}/claim`, { method: "POST", body: { invite: code } });
  const held = seatsFor(id);
  held.mine[got.seat] = got.token;
  delete held.invites[got.seat];
  saveSeats(id, held);
  return got.seat;
}

export function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  const item = document.createElement("div");
  item.className = `toast ${kind}`;
  item.textContent = message;
  box.appendChild(item);
  setTimeout(() => item.classList.add("gone"), 3200);
  setTimeout(() => item.remove(), 3800);
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = h("a", { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
