// The rack and choosing a placement: pick a tile, turn it, point at the board, see the
// points the engine gives, place. The placements of a tile, their order (best first) and
// their move text come from the server; the page sends back the move text it was given.
import { api, gamePath } from "./api.js";
import { drawTile, icon } from "./board.js";
import { h, svgEl, toast } from "./dom.js";
import { t } from "./i18n.js";
import {
  anchorsFacing,
  bestDirectionAt,
  cellKey,
  cycle,
  decodePlacements,
  indexPlacements,
  neighbour,
  placementAt,
  turn,
} from "./placements.js";

export class Placer {
  // page: the GamePage (state, board, held tokens, send, root elements).
  constructor(page) {
    this.page = page;
    this.meta = page.meta;
    this.directions = page.meta.board.directions;
    this.tile = null; // index in the rack
    this.direction = 0; // index into meta.board.directions (clockwise)
    this.target = null; // [q, r] of the tile's first half
    this.cursor = null;
    this.cycleAt = -1;
    this.reset();
  }

  get touchFirst() {
    return globalThis.matchMedia?.("(hover: none)").matches ?? false;
  }

  reset() {
    this.byTile = new Map(); // slot -> placements (for the current version)
    this.use([]);
  }

  use(placements) {
    this.placements = placements;
    this.index = indexPlacements(placements);
  }

  // A new state from the server.
  update(st, changed) {
    if (!changed) return;
    this.target = null;
    this.cycleAt = -1;
    if (st.rack && this.tile !== null && this.tile >= st.rack.length) this.tile = null;
    this.reset();
    const mine = this.page.myTurn(st) && st.phase !== "swap_offer";
    if (this.tile === null && mine && st.rack?.length) this.tile = 0;
    if (this.tile !== null && mine) this.load(this.tile);
  }

  // The selected tile's placements with their points, fetched from the server (the
  // engine's previews) when the tile is picked.
  async load(slot) {
    const page = this.page;
    const st = page.state;
    if (!page.myTurn(st) || !st.rack || slot >= st.rack.length) return;
    const box = page.gameEl;
    let placements = this.byTile.get(slot);
    if (!placements) {
      box.dataset.tiles = "loading";
      try {
        const got = await api(gamePath(page.id, `/options?slot=${slot}`), { token: page.held.mine[st.you] });
        if (got.version !== page.state.version) return;
        placements = decodePlacements(got);
        this.byTile.set(slot, placements);
      } catch (e) {
        if (e.status !== 403 && e.status !== 409) toast(e.message, "error");
        return;
      }
    }
    if (this.tile !== slot) return;
    this.use(placements);
    box.dataset.tiles = "ready";
    this.highlight();
  }

  placementAt(q, r, direction = this.direction) {
    if (this.tile === null) return null;
    return placementAt(this.index, q, r, direction);
  }

  targetPlacement() {
    return this.target ? this.placementAt(this.target[0], this.target[1]) : null;
  }

  // ----- drawing ----------------------------------------------------------------------------

  renderRack(st, el) {
    el.replaceChildren();
    if (!st.rack) {
      el.append(h("p", { class: "muted" }, t("Watching: racks are hidden.")));
      return;
    }
    const mine = this.page.myTurn(st) && st.phase !== "swap_offer";
    st.rack.forEach((colors, i) => {
      const selected = i === this.tile && mine;
      const direction = selected ? this.direction : 0;
      const [ox, oy] = this.directions[direction].offset;
      const scale = 0.62;
      const svg = svgEl("svg", { viewBox: "-20 -12 40 24", class: "rack-tile-svg", "aria-hidden": "true" });
      // The two halves centred in the box.
      drawTile(this.meta, svg, (-ox * scale) / 2, (-oy * scale) / 2, direction, colors, { scale, cls: "rack-pair" });
      const btn = h(
        "button",
        {
          type: "button",
          class: `rack-tile${selected ? " selected" : ""}`,
          role: "option",
          "aria-selected": selected ? "true" : "false",
          "aria-label": t("Tile {n}: {colors}", { n: i + 1, colors: st.rack_labels[i] }),
          "data-slot": i,
          disabled: !mine,
          onclick: () => this.pick(i),
        },
        svg,
        h("span", { class: "slot-no" }, String(i + 1)),
      );
      el.append(btn);
    });
  }

  highlight() {
    const page = this.page;
    const st = page.state;
    if (!st || !page.myTurn(st) || this.tile === null || st.phase === "swap_offer") {
      page.board.setLegal(new Set());
      page.board.setGhost(null);
      page.previewEl.replaceChildren();
      return;
    }
    page.board.setLegal(anchorsFacing(this.placements, this.direction));
    this.showTarget();
  }

  showTarget() {
    const page = this.page;
    const st = page.state;
    if (!this.target || this.tile === null || !st.rack) {
      page.board.setGhost(null);
      page.previewEl.replaceChildren(page.myTurn(st) ? h("span", { class: "muted" }, this.guide()) : "");
      page.refreshPlaceButton();
      return;
    }
    const [q, r] = this.target;
    const p = this.placementAt(q, r);
    if (p) {
      page.board.setGhost(p.cells[0], p.cells[1], p.colors, true, p.points);
      const parts = p.colors.map((c, i) => h("span", { class: "pts" }, icon(this.meta, c, 16), `+${p.points[i]}`));
      page.previewEl.replaceChildren(
        h(
          "span",
          {
            class: "score-preview",
            "data-points": p.points.join(","),
            "data-bonus": p.bonus,
            "data-move": p.move,
            title: `${p.colors.map((c, i) => `${this.meta.colors[c].title} +${p.points[i]}`).join(", ")} = ${p.total}`,
          },
          ...parts,
          h("span", { class: "sum" }, `= ${p.total}`),
          p.notes.map((n) => h("strong", { class: "ingenious" }, ` ${n}`)),
        ),
      );
    } else {
      const b = neighbour(this.directions, q, r, this.direction);
      page.board.setGhost([q, r], b, st.rack[this.tile], false, null);
      const other = bestDirectionAt(this.index, q, r, this.directions.length);
      page.previewEl.replaceChildren(
        h(
          "span",
          { class: "muted" },
          other === null ? t("This tile cannot go here.") : t("Not this way round: rotate (R)."),
        ),
      );
    }
    page.refreshPlaceButton();
    page.renderTracks(st, this.previewGains());
  }

  previewGains() {
    const p = this.targetPlacement();
    return p ? p.gains : null;
  }

  // What to do next, for the preview line.
  guide() {
    if (this.tile === null) {
      return this.touchFirst ? t("Tap a tile of your rack.") : t("Pick a tile (1–6), then point at the board.");
    }
    if (this.page.gameEl.dataset.tiles === "loading") return "…";
    if (!this.placements.length) return t("This tile fits nowhere: pick another.");
    return this.touchFirst
      ? t("Tap a lit cell to see the points; tap again to place.")
      : t("Point at a lit cell to see the points; click to place. N: best placement.");
  }

  // ----- the player's actions ------------------------------------------------------------------

  pick(i) {
    const page = this.page;
    const st = page.state;
    if (!page.myTurn(st) || !st.rack || i >= st.rack.length || st.phase === "swap_offer") return;
    if (this.tile !== i) {
      this.direction = 0;
      this.cycleAt = -1;
      this.use([]);
    }
    this.tile = i;
    page.renderRack(st);
    page.renderButtons(st);
    this.highlight();
    return this.load(i);
  }

  // Asks the server what the expert level would play (the terminal's hint) and, for a
  // placement, lays the tile there to look at before placing it.
  async hint() {
    const page = this.page;
    const st = page.state;
    if (!page.myTurn(st)) return;
    page.hintEl.textContent = t("Thinking…");
    let got;
    try {
      got = await api(gamePath(page.id, "/hint"), { token: page.held.mine[st.you] });
    } catch (e) {
      page.hintEl.textContent = "";
      toast(e.message, "error");
      return;
    }
    if (got.version !== page.state.version) return;
    page.hintEl.textContent = got.text;
    page.hintEl.dataset.move = got.move;
    if (got.slot === null) return;
    await this.pick(got.slot);
    const [q, r, direction] = got.anchor;
    this.direction = direction;
    this.aim(q, r);
    page.board.setCursor(q, r);
    page.renderRack(page.state);
    this.highlight();
  }

  putBack() {
    this.tile = null;
    this.target = null;
    this.page.renderRack(this.page.state);
    this.highlight();
  }

  rotate(step) {
    if (this.tile === null) return;
    this.direction = turn(this.direction, step, this.directions.length);
    this.page.renderRack(this.page.state);
    this.highlight();
  }

  aim(q, r) {
    this.target = [q, r];
    this.cursor = [q, r];
  }

  onCell(q, r, kind) {
    const page = this.page;
    const st = page.state;
    if (!page.myTurn(st) || this.tile === null || st.phase === "swap_offer") return;
    if (kind === "leave") {
      if (!this.touchFirst) {
        this.target = null;
        this.showTarget();
      }
      return;
    }
    if (kind === "hover") {
      if (this.touchFirst) return;
      this.aim(q, r);
      this.showTarget();
      return;
    }
    // click / tap
    const same = this.target && this.target[0] === q && this.target[1] === r;
    if (!this.placementAt(q, r)) {
      const d = bestDirectionAt(this.index, q, r, this.directions.length);
      this.aim(q, r);
      if (d !== null) {
        this.direction = d;
        page.renderRack(st);
        this.highlight();
      } else this.showTarget();
      return;
    }
    if (this.touchFirst && !same) {
      this.aim(q, r);
      this.showTarget();
      return;
    }
    this.aim(q, r);
    this.place();
  }

  // Moves the cursor to the neighbouring cell on the screen (arrow keys).
  step(name) {
    const index = this.directions.findIndex((d) => d.name === name);
    const [q, r] = this.cursor || [0, 0];
    const [nq, nr] = neighbour(this.directions, q, r, index);
    if (!this.page.board.cells.has(cellKey(nq, nr))) return;
    this.aim(nq, nr);
    this.page.board.setCursor(nq, nr);
    this.showTarget();
  }

  place() {
    const p = this.targetPlacement();
    if (p) this.page.send(p.move);
  }

  // Jumps to the next placement of the selected tile, best first.
  cycle(step) {
    const st = this.page.state;
    if (!this.page.myTurn(st) || this.tile === null) return;
    const next = cycle(this.placements, this.cycleAt, step);
    if (!next) {
      toast(t("This tile fits nowhere."));
      return;
    }
    this.cycleAt = next.at;
    this.direction = next.direction;
    this.aim(next.q, next.r);
    this.page.board.setCursor(next.q, next.r);
    this.page.renderRack(st);
    this.highlight();
  }
}
