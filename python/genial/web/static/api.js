// Talking to the server. Every payload is built by the server (genial.web.views); the
// page sends back what the player chose. Every request names the page's language
// (Accept-Language): the server writes its texts and its refusals in it.
import { current, t } from "./i18n.js";

export class ApiError extends Error {
  // `data`: the whole answer, for the fields beside its message (a bad notation's index).
  constructor(status, message, data = null) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { "Accept-Language": current() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const message =
      data?.error || t("The server answered {status} {text}", { status: res.status, text: res.statusText });
    throw new ApiError(res.status, message, data);
  }
  return data;
}

export const gamePath = (id, rest = "") => `/api/games/${encodeURIComponent(id)}${rest}`;
