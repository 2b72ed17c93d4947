// The game page: board, rack, tracks, live updates. The server (the engine) says what is
// legal and what it scores; this page only shows it and sends the player's choice.
import { api, claimInvite, download, h, inviteLink, saveSeats, seatsFor, toast } from "./api.js";
import { BoardView, CLOCKWISE, DIRS, el, key, symbol, tilePath } from "./board.js";
import { fairnessCard, verifyButton } from "./fairness.js";
import { icon, rankingView, tracksView } from "./tracks.js";

const LETTERS = "ROYGBP";
const END_TEXT = { board_full: "no free pair of cells is left", no_placement: "the player to move could not place a tile",
                   immediate_win: "a player reached 18 in every colour" };
const touchFirst = window.matchMedia("(hover: none)").matches;

function moveText(row) {
  return `${LETTERS[row[2]]}${row[0]},${row[1]}+${LETTERS[row[5]]}${row[3]},${row[4]}`;
}

export async function showGame(root, meta, id) {
  // An invite link carries a one-time code in the fragment (never sent to the server in a
  // URL); this page exchanges it for a seat token of its own. "#t=" opens a seat this
  // player already holds (a token they carried to another device).
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("invite")) {
    try {
      await claimInvite(id, frag.get("invite"));
    } catch (e) {
      toast(e.message, "error");
    }
    history.replaceState(null, "", location.pathname);
  }
  const held = seatsFor(id);
  if (frag.get("t")) {
    const token = frag.get("t");
    try {
      const v = await api(`/api/games/${encodeURIComponent(id)}`, { token });
      if (v.you !== null) {
        held.mine[v.you] = token;
        delete held.invites[v.you];
        saveSeats(id, held);
      }
    } catch (e) {
      toast(e.message, "error");
    }
    history.replaceState(null, "", location.pathname);
  }
  const page = new GamePage(root, meta, id, held);
  await page.start();
}

class GamePage {
  constructor(root, meta, id, held) {
    this.root = root;
    this.meta = meta;
    this.id = id;
    this.held = held;
    this.views = new Map(); // seat (or "watch") -> latest state
    this.sockets = [];
    this.tile = null; // index in the rack
    this.dir = 0; // index into DIRS
    this.target = null; // [q, r] of the tile's first half
    this.cursor = null;
    this.busy = false;
    this.lastVersion = -1;
    this.endShown = false;
  }

  get mySeats() {
    return Object.keys(this.held.mine).map(Number).sort((a, b) => a - b);
  }

  // The seat this screen acts for: the one to move if it is ours, else our first.
  get seat() {
    const any = this.views.values().next().value;
    const mine = this.mySeats;
    if (!mine.length) return null;
    if (any && mine.includes(any.current)) return any.current;
    return mine[0];
  }

  get state() {
    const s = this.seat;
    return this.views.get(s === null ? "watch" : s) || this.views.values().next().value;
  }

  async start() {
    this.build();
    const seats = this.mySeats;
    if (!seats.length) this.connect("watch", null);
    for (const s of seats) this.connect(s, this.held.mine[s]);
    document.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  connect(slot, token) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let delay = 500;
    const open = () => {
      const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(this.id)}/ws`);
      ws.addEventListener("open", () => {
        delay = 500;
        ws.send(JSON.stringify({ token }));
      });
      ws.addEventListener("message", (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.type === "error") {
          this.fatal(msg.error);
          return;
        }
        this.views.set(slot, msg);
        this.render();
      });
      ws.addEventListener("close", (ev) => {
        if (ev.code >= 4000) return;
        this.setConnection(false);
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 8000);
      });
      this.sockets.push(ws);
    };
    open();
  }

  fatal(message) {
    this.root.replaceChildren(h("div", { class: "card error-card" }, h("h2", {}, "This game cannot be shown"),
      h("p", {}, message), h("a", { class: "button", href: "/" }, "Back to the lobby")));
  }

  setConnection(ok) {
    this.root.classList.toggle("offline", !ok);
  }

  // ----- layout -------------------------------------------------------------------------------

  build() {
    this.statusEl = h("div", { class: "status", role: "status", "aria-live": "polite" });
    this.previewEl = h("div", { class: "preview", "aria-live": "polite" });
    this.rackEl = h("div", { class: "rack", role: "listbox", "aria-label": "Your rack" });
    this.buttonsEl = h("div", { class: "buttons" });
    this.seatsEl = h("div", { class: "players" });
    this.tracksEl = h("div", { class: "tracks-box" });
    this.logEl = h("ol", { class: "log", "aria-label": "Last moves" });
    this.inviteEl = h("div", { class: "invites" });
    this.fairEl = h("div", { class: "fairness-box" });
    this.overlay = h("div", { class: "overlay", hidden: true });
    const boardBox = h("div", { class: "board-box" });
    this.board = new BoardView(boardBox, this.meta, { onCell: (q, r, kind) => this.onCell(q, r, kind) });
    this.root.replaceChildren(h("div", { class: "game", "data-game": this.id },
      h("div", { class: "play-area" },
        this.statusEl,
        boardBox,
        h("div", { class: "dock" }, this.rackEl, this.previewEl, this.buttonsEl)),
      h("aside", { class: "sidebar" },
        this.seatsEl,
        this.tracksEl,
        this.inviteEl,
        this.fairEl,
        h("details", { class: "card log-card", open: !touchFirst }, h("summary", {}, "Moves"), this.logEl))),
      this.overlay);
  }

  // ----- state -> page ------------------------------------------------------------------------

  render() {
    const st = this.state;
    if (!st) return;
    this.setConnection(true);
    Object.assign(this.root.querySelector(".game").dataset, {
      version: st.version, phase: st.phase, current: st.current, moves: st.moves, over: st.over, you: st.you ?? "",
      others: (st.others || []).join(" "),
    });
    const changed = st.version !== this.lastVersion;
    if (changed) {
      this.lastVersion = st.version;
      this.target = null;
      if (st.rack && this.tile !== null && this.tile >= st.rack.length) this.tile = null;
      this.tileRows = new Map();
      this.indexOptions([]);
      if (this.tile === null && this.myTurn(st) && st.rack && st.rack.length) this.tile = 0;
      if (this.tile !== null && this.myTurn(st) && st.phase !== "swap_offer") this.loadTile(this.tile);
    }
    document.title = `${this.myTurn(st) ? "▶ Your turn · " : ""}Ingenious · ${st.variant}`;
    this.board.setZone(st.radius);
    const colours = new Map(st.cells.map(([q, r, c]) => [key(q, r), c]));
    const { recent, latest } = this.recent(st);
    this.board.setTiles(st.tiles, colours, recent, latest);
    this.renderStatus(st);
    this.renderRack(st);
    this.renderButtons(st);
    this.renderSeats(st);
    this.tracksEl.replaceChildren(tracksView(this.meta, st, st.seats.map((s) => s.name), { gains: this.previewGains() }));
    this.renderLog(st);
    this.renderInvites(st);
    this.fairEl.replaceChildren(fairnessCard(this.id, st) || "");
    this.updateHighlights();
    if (st.over && !this.endShown) this.showEnd(st);
    if (!st.over) this.hideEnd();
  }

  myTurn(st) {
    return st && !st.over && st.you !== null && st.current === st.you;
  }

  recent(st) {
    const placed = st.log.filter((e) => e.cells);
    if (!placed.length) return { recent: [], latest: null };
    let since = st.log.length;
    if (st.you !== null) {
      for (let i = st.log.length - 1; i >= 0; i--) if (st.log[i].seat === st.you) { since = i + 1; break; }
      if (since === st.log.length) since = Math.max(0, st.log.length - st.players);
    } else {
      since = Math.max(0, st.log.length - st.players);
    }
    const recent = st.log.slice(since).filter((e) => e.cells).map((e) => e.cells);
    return { recent, latest: placed[placed.length - 1].cells };
  }

  // The selected tile's placements with their points, fetched from the server (the engine
  // plays each one on a copy of the game) when the tile is picked.
  async loadTile(i) {
    const st = this.state;
    if (!this.myTurn(st) || !st.rack || i >= st.rack.length) return;
    const [a, b] = st.rack[i];
    const name = `${LETTERS[a]}${LETTERS[b]}`;
    const box = this.root.querySelector(".game");
    let rows = this.tileRows.get(name);
    if (!rows) {
      box.dataset.tiles = "loading";
      try {
        const got = await api(`/api/games/${encodeURIComponent(this.id)}/options?tile=${name}`, { token: this.held.mine[st.you] });
        if (got.version !== this.state.version) return;
        rows = got.placements;
        this.tileRows.set(name, rows);
      } catch (e) {
        if (e.status !== 403 && e.status !== 409) toast(e.message, "error");
        return;
      }
    }
    if (this.tile !== i) return;
    this.indexOptions(rows);
    box.dataset.tiles = "ready";
    this.updateHighlights();
  }

  indexOptions(rows) {
    this.options = new Map();
    this.placements = rows;
    for (const row of this.placements) {
      this.options.set(`${row[0]},${row[1]},${row[2]}|${row[3]},${row[4]},${row[5]}`, { row, flip: false });
      this.options.set(`${row[3]},${row[4]},${row[5]}|${row[0]},${row[1]},${row[2]}`, { row, flip: true });
    }
  }

  // The legal placement with the selected tile's first half on `a` in the current direction.
  optionAt(q, r, dir = this.dir) {
    const st = this.state;
    if (this.tile === null || !st.rack || !this.options) return null;
    const [ca, cb] = st.rack[this.tile];
    const [dq, dr] = DIRS[dir];
    return this.options.get(`${q},${r},${ca}|${q + dq},${r + dr},${cb}`) || null;
  }

  renderStatus(st) {
    const name = (i) => st.seats[i].name;
    let text;
    let cls = "status";
    if (st.over) {
      text = st.variant === "solo" ? `Game over: your result is ${Math.min(...st.scores[0])}` : `Game over: ${st.ranking[0].map(name).join(" = ")} ${st.ranking[0].length > 1 ? "share first place" : "wins"}`;
      cls += " over";
    } else if (this.myTurn(st)) {
      cls += " mine";
      if (st.phase === "bonus") text = `Ingenious! Place a bonus tile${st.pending_bonuses ? ` (${st.pending_bonuses} more after this)` : ""}`;
      else if (st.phase === "swap_offer") text = "You may swap your whole rack for six new tiles";
      else text = this.mySeats.length > 1 ? `${name(st.current)}: your turn` : "Your turn: pick a tile and place it";
      if (st.phase === "bonus") cls += " bonus";
    } else {
      const who = st.seats[st.current];
      const verb = st.phase === "bonus" ? "plays a bonus tile" : st.phase === "swap_offer" ? "decides on a swap" : "is placing";
      text = who.kind === "bot" ? `${who.name} is thinking…` : `Waiting: ${who.name} ${verb}`;
    }
    this.statusEl.className = cls;
    this.statusEl.replaceChildren(h("span", {}, text), h("span", { class: "bag", title: "tiles left in the bag" }, `bag ${st.bag}`));
  }

  renderRack(st) {
    this.rackEl.replaceChildren();
    if (!st.rack) {
      this.rackEl.append(h("p", { class: "muted" }, "Watching: racks are hidden."));
      return;
    }
    const mine = this.myTurn(st) && st.phase !== "swap_offer";
    st.rack.forEach(([a, b], i) => {
      const selected = i === this.tile && mine;
      const svg = el("svg", { viewBox: "-20 -12 40 24", class: "rack-tile-svg", "aria-hidden": "true" });
      const dir = selected ? this.dir : 0;
      const [dq, dr] = DIRS[dir];
      // Centre the two halves in the box.
      const s = 6.2;
      const ax = -(Math.sqrt(3) * s * (dq + dr / 2)) / 2, ay = -(1.5 * s * dr) / 2;
      const g = el("g", { transform: `translate(${ax.toFixed(2)} ${ay.toFixed(2)})` }, svg);
      el("path", { d: tilePath([0, 0], [dq, dr], s), class: "tile-body" }, g);
      symbol(this.meta, a, 0, 0, s * 0.6, this.meta.colors[a].fill, g);
      const bx = Math.sqrt(3) * s * (dq + dr / 2), by = 1.5 * s * dr;
      symbol(this.meta, b, bx, by, s * 0.6, this.meta.colors[b].fill, g);
      const label = `${this.meta.colors[a].name} and ${this.meta.colors[b].name}`;
      const btn = h("button", {
        type: "button", class: `rack-tile${selected ? " selected" : ""}`, role: "option", "aria-selected": selected ? "true" : "false",
        "aria-label": `Tile ${i + 1}: ${label}`, "data-slot": i, "data-tile": `${LETTERS[a]}${LETTERS[b]}`, disabled: !mine,
        onclick: () => this.pickTile(i),
      }, svg, h("span", { class: "slot-no" }, String(i + 1)));
      this.rackEl.append(btn);
    });
  }

  renderButtons(st) {
    const my = this.myTurn(st);
    const others = my ? st.others || [] : [];
    const btns = [];
    if (my && st.phase !== "swap_offer") {
      btns.push(h("button", { type: "button", id: "rotate", title: "Rotate (R)", onclick: () => this.rotate(1), disabled: this.tile === null }, "⟳ Rotate"));
      btns.push(h("button", { type: "button", id: "place", class: "primary", title: "Place (Enter)", disabled: !this.targetOption(), onclick: () => this.placeTarget() }, "Place ✓"));
    }
    if (others.includes("swap")) {
      btns.push(h("button", { type: "button", id: "swap", class: st.phase === "swap_offer" ? "primary" : "", title: "Swap (S)", onclick: () => this.send("swap") },
        st.phase === "swap_offer" ? "Swap rack" : "Swap rack instead"));
    }
    if (others.includes("keep")) btns.push(h("button", { type: "button", id: "keep", title: "Keep (K)", onclick: () => this.send("keep") }, "Keep rack"));
    if (st.can_undo) btns.push(h("button", { type: "button", id: "undo", class: "ghost", title: "Undo (U)", onclick: () => this.undo() }, "↶ Undo"));
    this.buttonsEl.replaceChildren(...btns);
  }

  renderSeats(st) {
    this.seatsEl.replaceChildren(...st.seats.map((s) => {
      const mine = this.mySeats.includes(s.seat);
      const who = s.kind === "bot" ? h("span", { class: "kind bot" }, `bot · ${s.label}`) : h("span", { class: `kind ${s.online ? "online" : "away"}` }, s.online ? "● online" : "○ away");
      return h("div", { class: `player${st.current === s.seat && !st.over ? " to-move" : ""}${mine ? " me" : ""}`, "data-seat": s.seat },
        h("span", { class: "name" }, s.name, mine ? h("em", {}, " (you)") : null),
        who,
        h("span", { class: "rack-size", title: "tiles in rack" }, `${st.rack_sizes[s.seat]} tiles`));
    }));
  }

  renderLog(st) {
    this.logEl.replaceChildren(...st.log.slice().reverse().map((e) => {
      const who = st.seats[e.seat].name;
      const body = [h("span", { class: "log-who" }, who)];
      if (e.cells) {
        body.push(h("span", { class: "log-tile" }, icon(this.meta, e.colors[0], 14), icon(this.meta, e.colors[1], 14)));
        const pts = e.gains.map((g, c) => (g ? `${this.meta.colors[c].name} +${g}` : null)).filter(Boolean).join(", ");
        body.push(h("span", {}, pts || "no points"));
        if (e.bonus) body.push(h("strong", { class: "ingenious" }, " Ingenious!"));
        if (e.was_bonus) body.push(h("em", {}, " (bonus)"));
      } else {
        body.push(h("span", {}, e.kind === "swap" ? "swapped the rack" : "kept the rack"));
      }
      return h("li", { value: e.n + 1 }, ...body);
    }));
  }

  renderInvites(st) {
    const seats = Object.keys(this.held.invites).map(Number).filter((s) => st.seats[s] && !st.seats[s].joined);
    if (!seats.length) {
      this.inviteEl.replaceChildren();
      return;
    }
    this.inviteEl.replaceChildren(h("div", { class: "card" }, h("h3", {}, "Invite friends"),
      h("p", { class: "muted" }, "Each link seats one player, once: send it only to that player."),
      ...seats.map((s) => {
        const link = inviteLink(this.id, this.held.invites[s]);
        return h("div", { class: "invite", "data-seat": s },
          h("span", {}, st.seats[s].name),
          h("input", { type: "text", readonly: true, value: link, "aria-label": `Invite link for ${st.seats[s].name}`, onfocus: (e) => e.target.select() }),
          h("button", { type: "button", onclick: async () => {
            try { await navigator.clipboard.writeText(link); toast("Link copied"); } catch { toast("Select the link and copy it"); }
          } }, "Copy"),
          h("button", { type: "button", class: "ghost", title: "Play this seat at this screen too", onclick: async () => {
            try {
              await claimInvite(this.id, this.held.invites[s]);
              location.reload();
            } catch (e) {
              toast(e.message, "error");
            }
          } }, "Play here"));
      })));
  }

  // ----- choosing a placement ---------------------------------------------------------------

  updateHighlights() {
    const st = this.state;
    if (!st || !this.myTurn(st) || this.tile === null || st.phase === "swap_offer") {
      this.board.setLegal(new Set());
      this.board.setGhost(null);
      this.previewEl.replaceChildren();
      return;
    }
    const lit = new Set();
    for (const k of this.board.cells.keys()) {
      const [q, r] = k.split(",").map(Number);
      if (this.optionAt(q, r)) lit.add(k);
    }
    this.board.setLegal(lit);
    this.showTarget();
  }

  targetOption() {
    return this.target ? this.optionAt(this.target[0], this.target[1]) : null;
  }

  showTarget() {
    const st = this.state;
    if (!this.target || this.tile === null || !st.rack) {
      this.board.setGhost(null);
      this.previewEl.replaceChildren(this.myTurn(st) ? h("span", { class: "muted" }, this.hint()) : "");
      this.refreshPlaceButton();
      return;
    }
    const [q, r] = this.target;
    const [ca, cb] = st.rack[this.tile];
    const [dq, dr] = DIRS[this.dir];
    const b = [q + dq, r + dr];
    const opt = this.optionAt(q, r);
    const points = opt ? (opt.flip ? [opt.row[7], opt.row[6]] : [opt.row[6], opt.row[7]]) : null;
    this.board.setGhost([q, r], b, ca, cb, !!opt, points);
    if (!opt) {
      const other = this.bestDirAt(q, r);
      this.previewEl.replaceChildren(h("span", { class: "muted" }, other === null ? "This tile cannot go here." : "Not this way round: rotate (R)."));
    } else {
      const [, , , , , , pa, pb, bonus, gained] = opt.row;
      const name = (c) => this.meta.colors[c].name;
      const parts = [h("span", { class: "pts" }, icon(this.meta, ca, 16), `+${points[0]}`),
                     h("span", { class: "pts" }, icon(this.meta, cb, 16), `+${points[1]}`)];
      const total = pa + pb;
      const extra = [];
      if (gained !== total) extra.push(h("span", { class: "muted" }, ` (track moves ${gained})`));
      if (bonus) extra.push(h("strong", { class: "ingenious" }, ` Ingenious! ${bonus > 1 ? bonus + " bonus tiles" : "bonus tile"}`));
      this.previewEl.replaceChildren(h("span", { class: "score-preview", "data-points": `${points[0]},${points[1]}`, "data-bonus": bonus,
        title: `${name(ca)} +${points[0]}, ${name(cb)} +${points[1]}` }, ...parts, h("span", { class: "sum" }, `= ${total}`), ...extra));
    }
    this.refreshPlaceButton();
    this.tracksEl.replaceChildren(tracksView(this.meta, st, st.seats.map((s) => s.name), { gains: this.previewGains() }));
  }

  previewGains() {
    const opt = this.targetOption();
    if (!opt) return null;
    const g = [0, 0, 0, 0, 0, 0];
    g[opt.row[2]] += opt.row[6];
    g[opt.row[5]] += opt.row[7];
    return g;
  }

  hint() {
    if (this.tile === null) return touchFirst ? "Tap a tile of your rack." : "Pick a tile (1–6), then point at the board.";
    const n = this.countForTile();
    if (this.root.querySelector(".game").dataset.tiles === "loading") return "…";
    if (!n) return "This tile fits nowhere: pick another.";
    return touchFirst ? "Tap a lit cell to see the points; tap again to place." : "Point at a lit cell to see the points; click to place. N: best placement.";
  }

  countForTile() {
    return this.placements ? this.placements.length : 0;
  }

  refreshPlaceButton() {
    const btn = this.buttonsEl.querySelector("#place");
    if (btn) btn.disabled = !this.targetOption();
  }

  bestDirAt(q, r) {
    let best = null, bestScore = -1;
    for (const d of CLOCKWISE) {
      const o = this.optionAt(q, r, d);
      if (!o) continue;
      const score = o.row[8] * 1000 + o.row[9];
      if (score > bestScore) { best = d; bestScore = score; }
    }
    return best;
  }

  pickTile(i) {
    const st = this.state;
    if (!this.myTurn(st) || !st.rack || i >= st.rack.length || st.phase === "swap_offer") return;
    if (this.tile !== i) { this.dir = 0; this.cycleAt = -1; this.indexOptions([]); }
    this.tile = i;
    this.renderRack(st);
    this.renderButtons(st);
    this.updateHighlights();
    this.loadTile(i);
  }

  rotate(step) {
    if (this.tile === null) return;
    const at = CLOCKWISE.indexOf(this.dir);
    this.dir = CLOCKWISE[(at + step + 6) % 6];
    this.renderRack(this.state);
    this.updateHighlights();
  }

  onCell(q, r, kind) {
    const st = this.state;
    if (!this.myTurn(st) || this.tile === null || st.phase === "swap_offer") return;
    if (kind === "leave") {
      if (!touchFirst) { this.target = null; this.showTarget(); }
      return;
    }
    if (kind === "hover") {
      if (touchFirst) return;
      this.target = [q, r];
      this.cursor = [q, r];
      this.showTarget();
      return;
    }
    // click / tap
    const same = this.target && this.target[0] === q && this.target[1] === r;
    if (!this.optionAt(q, r)) {
      const d = this.bestDirAt(q, r);
      this.target = [q, r];
      this.cursor = [q, r];
      if (d !== null) { this.dir = d; this.renderRack(st); this.updateHighlights(); } else this.showTarget();
      return;
    }
    if (touchFirst && !same) {
      this.target = [q, r];
      this.cursor = [q, r];
      this.showTarget();
      return;
    }
    this.target = [q, r];
    this.placeTarget();
  }

  placeTarget() {
    const opt = this.targetOption();
    if (!opt) return;
    this.send(moveText(opt.row));
  }

  // Jumps to the next legal placement of the selected tile, most points first.
  cycle(step) {
    const st = this.state;
    if (!this.myTurn(st) || this.tile === null) return;
    const [ca, cb] = st.rack[this.tile];
    const mine = [];
    for (const row of this.placements) {
      for (const flip of [false, true]) {
        const [a, b, c1, c2] = flip ? [[row[3], row[4]], [row[0], row[1]], row[5], row[2]] : [[row[0], row[1]], [row[3], row[4]], row[2], row[5]];
        if (c1 !== ca || c2 !== cb) continue;
        const d = DIRS.findIndex(([dq, dr]) => a[0] + dq === b[0] && a[1] + dr === b[1]);
        mine.push({ a, d });
        if (ca === cb) break;
      }
    }
    if (!mine.length) { toast("This tile fits nowhere."); return; }
    this.cycleAt = ((this.cycleAt ?? -1) + step + mine.length) % mine.length;
    const pick = mine[this.cycleAt];
    this.dir = pick.d;
    this.target = pick.a;
    this.cursor = pick.a;
    this.board.setCursor(...pick.a);
    this.renderRack(st);
    this.updateHighlights();
  }

  async send(move) {
    const st = this.state;
    if (this.busy || !st || st.you === null) return;
    this.busy = true;
    this.root.classList.add("busy");
    try {
      const ack = await api(`/api/games/${encodeURIComponent(this.id)}/move`, { method: "POST", token: this.held.mine[st.you], body: { version: st.version, move } });
      this.cycleAt = -1;
      this.board.setCursor(null);
      if (ack.result && ack.result.bonus) toast("Ingenious! You earned a bonus placement.", "good");
    } catch (e) {
      toast(e.message, "error");
    } finally {
      this.busy = false;
      this.root.classList.remove("busy");
    }
  }

  async undo() {
    const st = this.state;
    if (this.busy || !st || !st.can_undo) return;
    this.busy = true;
    try {
      await api(`/api/games/${encodeURIComponent(this.id)}/undo`, { method: "POST", token: this.held.mine[st.you], body: { version: st.version } });
      this.endShown = false;
      toast("Move taken back");
    } catch (e) {
      toast(e.message, "error");
    } finally {
      this.busy = false;
    }
  }

  async downloadRecord() {
    const st = this.state;
    try {
      const token = st.you !== null ? this.held.mine[st.you] : undefined;
      const res = await fetch(`/api/games/${encodeURIComponent(this.id)}/record`, { headers: token ? { "X-Seat-Token": token } : {} });
      const text = await res.text();
      if (!res.ok) throw new Error(JSON.parse(text).error);
      download(`genial-${this.id}.json`, text);
    } catch (e) {
      toast(e.message, "error");
    }
  }

  // ----- the end ---------------------------------------------------------------------------------

  showEnd(st) {
    this.endShown = true;
    const names = st.seats.map((s) => s.name);
    const why = END_TEXT[st.end] || st.end;
    const card = h("div", { class: "card end-card", role: "dialog", "aria-label": "Game over" },
      h("h2", {}, st.variant === "solo" ? `Result: ${Math.min(...st.scores[0])}` : "Game over"),
      h("p", { class: "muted" }, `The game ended: ${why}.`),
      st.variant === "solo" ? null : rankingView(this.meta, st, names),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "download", onclick: () => this.downloadRecord() }, "⤓ Download record"),
        h("a", { class: "button", id: "replay-link", href: `/replay#game=${encodeURIComponent(this.id)}` }, "▶ Replay"),
        st.can_undo ? h("button", { type: "button", class: "ghost", onclick: () => this.undo() }, "↶ Undo last move") : null,
        h("a", { class: "button primary", href: "/" }, "New game"),
        h("button", { type: "button", class: "ghost", onclick: () => this.hideEnd() }, "Look at the board")),
      verifyButton(this.id, st));
    this.overlay.replaceChildren(card);
    this.overlay.hidden = false;
  }

  hideEnd() {
    this.overlay.hidden = true;
  }

  // ----- keys -------------------------------------------------------------------------------------

  onKey(ev) {
    if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const st = this.state;
    if (!st) return;
    const k = ev.key;
    if (/^[1-6]$/.test(k)) { this.pickTile(Number(k) - 1); ev.preventDefault(); return; }
    if (k === "r" || k === "R") { this.rotate(ev.shiftKey ? -1 : 1); ev.preventDefault(); return; }
    if (k === "n" || k === "N") { this.cycle(1); ev.preventDefault(); return; }
    if (k === "p" || k === "P") { this.cycle(-1); ev.preventDefault(); return; }
    if ((k === "s" || k === "S") && (st.others || []).includes("swap") && this.myTurn(st)) { this.send("swap"); return; }
    if ((k === "k" || k === "K") && (st.others || []).includes("keep") && this.myTurn(st)) { this.send("keep"); return; }
    if ((k === "u" || k === "U") && st.can_undo) { this.undo(); return; }
    if (k === "Escape") { this.tile = null; this.target = null; this.renderRack(st); this.updateHighlights(); return; }
    if (k === "Enter" || k === " ") {
      if (this.targetOption()) { this.placeTarget(); ev.preventDefault(); }
      return;
    }
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[k] && this.myTurn(st)) {
      ev.preventDefault();
      const [q, r] = this.cursor || [0, 0];
      const [dq, dr] = moves[k];
      const nq = q + dq, nr = r + dr;
      if (!this.board.cells.has(key(nq, nr))) return;
      this.cursor = [nq, nr];
      this.target = [nq, nr];
      this.board.setCursor(nq, nr);
      this.showTarget();
    }
  }
}
