// qwirkle view: steps through one game embedded as JSON (see qwirkle_tools/outputs/viewer.py).
// It draws and steps, nothing more: every rule-dependent fact (board changes, scores,
// findings, analysis, unseen tiles, the leader, a claim that differs) and every tile's
// colour and shape were worked out by the Python side and are read from the data. Record text is only ever set as textContent, never parsed as HTML.
(function () {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  const game = JSON.parse(document.getElementById("game-data").textContent);
  const turns = game.turns;
  const states = game.states;
  const last = turns.length;
  const players = game.players;
  const root = document.documentElement;
  let current = last;
  let showBest = true; // the best move (or the candidate picked) drawn on the board; B toggles it
  let picked = null; // the index of the candidate picked in the list at the current turn, or null: the best move

  // -- small helpers ---------------------------------------------------------

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function playerName(p) {
    return p >= 0 && p < players.length ? players[p] : "seat " + p;
  }

  function colourOf(p) {
    return game.palette[((p % game.palette.length) + game.palette.length) % game.palette.length];
  }

  function plural(n, word) {  // a figure the record cannot tell (null) is "n/a", never 0
    return n === null || n === undefined ? "n/a " + word + "s" : n + " " + word + (n === 1 ? "" : "s");
  }

  // A tile drawn in a unit cell centred on (0, 0): its dark face and its shape.
  function tileGroup(t, opts) {
    const g = svg("g");
    const o = opts || {};
    const face = svg("rect", { x: -0.44, y: -0.44, width: 0.88, height: 0.88, rx: 0.12, ry: 0.12, class: "face" });
    face.setAttribute("fill", "var(--face)");
    if (o.best) {
      face.setAttribute("fill-opacity", "0.3");
      face.setAttribute("stroke", "var(--best)");
      face.setAttribute("stroke-width", "0.08");
      face.setAttribute("stroke-dasharray", "0.22 0.1");
    } else if (o.ghost) {
      face.setAttribute("fill-opacity", "0.35");
      face.setAttribute("stroke", "var(--ghost)");
      face.setAttribute("stroke-width", "0.06");
      face.setAttribute("stroke-dasharray", "0.12 0.08");
    } else if (o.last) {
      face.setAttribute("stroke", "var(--gold)");
      face.setAttribute("stroke-width", "0.07");
    }
    g.appendChild(face);
    const shape = svg("use", { href: "#shape-" + game.shapes[game.shape_of[t]], x: -0.5, y: -0.5, width: 1, height: 1 });
    shape.setAttribute("fill", game.colours[game.colour_of[t]]);
    if (o.ghost || o.best) shape.setAttribute("fill-opacity", o.best ? "0.6" : "0.45");
    g.appendChild(shape);
    return g;
  }

  // A small tile (racks, tracker); with no text inside, so a tracker cell's text is its count alone.
  function miniTile(t) {
    const s = svg("svg", { class: "mini", viewBox: "-0.5 -0.5 1 1", role: "img", "aria-label": game.tiles[t] });
    s.appendChild(tileGroup(t));
    return s;
  }

  // -- the board -------------------------------------------------------------

  // Display positions: the Python side closed up long empty runs (pictures._axis).
  const colOf = new Map();
  game.cols.forEach((x, i) => { if (x !== null) colOf.set(x, i); });
  const rowOf = new Map();
  game.rows.forEach((y, i) => { if (y !== null) rowOf.set(y, i); });

  // boards[n]: Map "x,y" -> [tile, x, y] after n turns (built once, from the engine's changes).
  const boards = [];
  {
    let cells = new Map();
    for (const s of states) {
      cells = new Map(cells);
      for (const [x, y] of s.del) cells.delete(x + "," + y);
      for (const [t, x, y] of s.add) cells.set(x + "," + y, [t, x, y]);
      boards.push(cells);
    }
  }

  const boardSvg = document.getElementById("board");
  const view = { x: 0, y: 0, w: 10, h: 10, user: false };

  function setViewBox() {
    boardSvg.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h);
    // text keeps a readable size on the screen (at least 11 px) however far the board is zoomed out
    const rect = boardSvg.getBoundingClientRect();
    const perUnit = rect.width > 0 && rect.height > 0 ? Math.min(rect.width / view.w, rect.height / view.h) : 40;
    boardSvg.style.setProperty("--coord-size", Math.max(0.28, 11 / perUnit) + "px");
    boardSvg.style.setProperty("--note-size", Math.max(0.4, 13 / perUnit) + "px");
  }

  // The move drawn as ghosts at turn n: the candidate picked, else the best move (none when it was played).
  function shownMove(n) {
    const turn = n > 0 ? turns[n - 1] : null;
    if (!showBest || !turn) return null;
    if (picked !== null && turn.cands && turn.cands[picked]) return { move: turn.cands[picked], kind: "candidate " + (picked + 1) };
    if (turn.best && !turn.best.pl) return { move: turn.best, kind: "best" };
    return null;
  }

  function fitBox(given) {
    // never closer than about eight cells across: a small board is not drawn huge
    const box = { x: given.x - Math.max(0, 8 - given.w) / 2, y: given.y - Math.max(0, 6 - given.h) / 2,
      w: Math.max(given.w, 8), h: Math.max(given.h, 6) };
    const rect = boardSvg.getBoundingClientRect();
    const aspect = rect.width > 0 && rect.height > 0 ? rect.width / rect.height : 1.5;
    let w = box.w;
    let h = box.h;
    if (w / h < aspect) w = h * aspect; else h = w / aspect;
    view.x = box.x - (w - box.w) / 2;
    view.y = box.y - (h - box.h) / 2;
    view.w = w;
    view.h = h;
    setViewBox();
  }

  let contentBox = { x: -3, y: -3, w: 6, h: 6 };

  function drawBoard(n) {
    clear(boardSvg);
    const note = document.getElementById("board-note");
    const state = states[n];
    if (!state.known) {
      note.textContent = "not known after turn " + n + " (a turn's tiles are not recorded)";
      const t = svg("text", { x: 0, y: 0, class: "empty-note" }, "The board is not known here.");
      boardSvg.appendChild(t);
      contentBox = { x: -4, y: -2, w: 8, h: 4 };
      if (!view.user) fitBox(contentBox);
      return;
    }
    const cells = [...boards[n].values()].filter(([, x, y]) => colOf.has(x) && rowOf.has(y));
    const turn = n > 0 ? turns[n - 1] : null;
    const ghosts = turn && turn.ghost ? turn.ghost.filter(([, x, y]) => colOf.has(x) && rowOf.has(y)) : [];
    const shown = shownMove(n);
    const bests = shown ? shown.move.m.filter(([, x, y]) => colOf.has(x) && rowOf.has(y)) : [];
    root.setAttribute("data-shown", shown ? shown.kind : "none");
    const lastMove = new Set(n > 0 ? states[n].add.map(([, x, y]) => x + "," + y) : []);
    const by = turn && turn.best ? (turn.best.by === "greedy" ? "best score" :
      turn.best.by === "same-tiles" ? "with the same tiles" :
      turn.best.by === "inferred" ? "inferred: most often best over the racks drawn" : turn.best.by + " engine") : "";
    note.textContent = plural(boards[n].size, "tile") + (state.cut ? " (" + state.cut + ")" : "") +
      (lastMove.size ? "; gold: the move played" : "") +
      (shown ? "; blue dashes: " + (shown.kind === "best" ? "the best move (" + by + ")" : shown.kind) + ", " + shown.move.text : "") +
      (turn && turn.best && turn.best.pl ? "; the move played is the best (" + by + ")" : "") +
      (ghosts.length ? "; red dashes: a missed Qwirkle" : "") +
      (turn && turn.gift ? "; red line: a line of five left open (a Qwirkle gift)" : "");
    if (!cells.length && !ghosts.length && !bests.length) {
      boardSvg.appendChild(svg("text", { x: 0, y: 0, class: "empty-note" }, "The table is empty."));
      contentBox = { x: -4, y: -2, w: 8, h: 4 };
      if (!view.user) fitBox(contentBox);
      return;
    }
    let c0 = Infinity, c1 = -Infinity, r0 = Infinity, r1 = -Infinity;
    for (const [, x, y] of cells.concat(ghosts, bests)) {
      const c = colOf.get(x), r = rowOf.get(y);
      c0 = Math.min(c0, c); c1 = Math.max(c1, c); r0 = Math.min(r0, r); r1 = Math.max(r1, r);
    }
    // coordinates on the edges: the columns' x above, the rows' y on the left
    const labels = svg("g", { class: "coords" });
    for (let c = c0; c <= c1; c++) {
      const x = game.cols[c];
      labels.appendChild(svg("text", { x: c, y: r0 - 0.85, class: "coord" }, x === null ? ".." : x));
    }
    for (let r = r0; r <= r1; r++) {
      const y = game.rows[r];
      labels.appendChild(svg("text", { x: c0 - 0.9, y: r, class: "coord" }, y === null ? ".." : y));
    }
    boardSvg.appendChild(labels);
    const layer = svg("g", { class: "tiles" });
    cells.sort((a, b) => a[2] - b[2] || a[1] - b[1]);
    for (const [t, x, y] of cells) {
      const g = tileGroup(t, { last: lastMove.has(x + "," + y) });
      g.setAttribute("class", lastMove.has(x + "," + y) ? "tile last" : "tile");
      g.setAttribute("data-tile", game.tiles[t]);
      g.setAttribute("data-x", x);
      g.setAttribute("data-y", y);
      g.setAttribute("transform", "translate(" + colOf.get(x) + " " + rowOf.get(y) + ")");
      g.appendChild(svg("title", {}, game.tiles[t] + " at (" + x + "," + y + ")"));
      layer.appendChild(g);
    }
    for (const [t, x, y] of ghosts) {
      const g = tileGroup(t, { ghost: true });
      g.setAttribute("class", "ghost");
      g.setAttribute("data-ghost", game.tiles[t]);
      g.setAttribute("transform", "translate(" + colOf.get(x) + " " + rowOf.get(y) + ")");
      g.appendChild(svg("title", {}, "missed Qwirkle: " + game.tiles[t] + " at (" + x + "," + y + ")"));
      layer.appendChild(g);
    }
    for (const [t, x, y] of bests) {
      const g = tileGroup(t, { best: true });
      g.setAttribute("class", "best-ghost");
      g.setAttribute("data-best", game.tiles[t]);
      g.setAttribute("data-x", x);
      g.setAttribute("data-y", y);
      g.setAttribute("transform", "translate(" + colOf.get(x) + " " + rowOf.get(y) + ")");
      g.appendChild(svg("title", {}, (shown.kind === "best" ? "best move: " : shown.kind + ": ") + game.tiles[t] + " at (" + x + "," + y + ")"));
      layer.appendChild(g);
    }
    boardSvg.appendChild(layer);
    if (turn && turn.gift) {
      const pts = turn.gift.line.filter(([x, y]) => colOf.has(x) && rowOf.has(y)).map(([x, y]) => [colOf.get(x), rowOf.get(y)]);
      if (pts.length) {
        const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
        const across = Math.min(...ys) === Math.max(...ys); // a row; else a column
        const line = svg("line", {
          x1: Math.min(...xs) - (across ? 0.45 : 0), y1: Math.min(...ys) - (across ? 0 : 0.45),
          x2: Math.max(...xs) + (across ? 0.45 : 0), y2: Math.max(...ys) + (across ? 0 : 0.45),
          class: "gift-line",
        });
        line.appendChild(svg("title", {}, "line of five left open for " + turn.gift.missing + "; turn " + turn.gift.by + " completed it"));
        boardSvg.appendChild(line);
      }
    }
    contentBox = { x: c0 - 1.5, y: r0 - 1.4, w: c1 - c0 + 2.6, h: r1 - r0 + 2.5 };
    if (!view.user) fitBox(contentBox);
  }

  // pan with the pointer, zoom with the wheel, fit with the button or a double click
  {
    let drag = null;
    boardSvg.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
      boardSvg.setPointerCapture(e.pointerId);
      boardSvg.classList.add("dragging");
    });
    boardSvg.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const rect = boardSvg.getBoundingClientRect();
      const scale = Math.max(view.w / rect.width, view.h / rect.height);
      view.x = drag.vx - (e.clientX - drag.x) * scale;
      view.y = drag.vy - (e.clientY - drag.y) * scale;
      if (e.clientX !== drag.x || e.clientY !== drag.y) view.user = true;
      setViewBox();
    });
    const stop = () => { drag = null; boardSvg.classList.remove("dragging"); };
    boardSvg.addEventListener("pointerup", stop);
    boardSvg.addEventListener("pointercancel", stop);
    boardSvg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rect = boardSvg.getBoundingClientRect();
      const scale = Math.max(view.w / rect.width, view.h / rect.height);
      // the point under the pointer stays put (preserveAspectRatio centres the view box)
      const px = view.x + (e.clientX - rect.left - (rect.width - view.w / scale) / 2) * scale;
      const py = view.y + (e.clientY - rect.top - (rect.height - view.h / scale) / 2) * scale;
      const k = Math.exp(Math.sign(e.deltaY) * 0.15);
      const w = Math.min(Math.max(view.w * k, 2), 400);
      const f = w / view.w;
      view.x = px - (px - view.x) * f;
      view.y = py - (py - view.y) * f;
      view.w *= f;
      view.h *= f;
      view.user = true;
      setViewBox();
    }, { passive: false });
    const fit = () => { view.user = false; fitBox(contentBox); };
    boardSvg.addEventListener("dblclick", fit);
    document.getElementById("fit").addEventListener("click", fit);
    window.addEventListener("resize", () => { if (!view.user) fitBox(contentBox); });
  }

  // -- the score chart -------------------------------------------------------

  const chartSvg = document.getElementById("chart");
  let W = 760; // the chart's width in its own units: its width on the screen, so its text is drawn at its size
  const H = 240, L = 44, R = 14, T = 14, B = 26;
  const series = players.map((_, p) => [game.scores0[p] || 0].concat(turns.map((t) => t.tot[p] || 0)));
  const yMax = game.yticks[game.yticks.length - 1]; // the axes' round values come worked out: a few, for any range
  const compact = new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 4 }); // 300, 1.25K, 500M: fits
  const xAt = (n) => L + (last ? (n / last) * (W - L - R) : 0);
  const yAt = (v) => T + (1 - v / yMax) * (H - T - B);
  const chartCursor = svg("g");

  function widthOf(node) {
    const w = node.getBoundingClientRect().width;
    return w > 0 ? Math.max(240, Math.round(w)) : 760;
  }

  function drawChart() {
    clear(chartSvg);
    W = widthOf(chartSvg);
    chartSvg.setAttribute("viewBox", "0 0 " + W + " " + H);
    for (const v of game.yticks) {
      chartSvg.appendChild(svg("line", { x1: L, x2: W - R, y1: yAt(v), y2: yAt(v), class: "grid" }));
      chartSvg.appendChild(svg("text", { x: L - 6, y: yAt(v) + 4, class: "tick", "text-anchor": "end" }, compact.format(v)));
    }
    for (const n of game.xticks) { // the last turn's label ends at the edge, so a long number is not cut off
      chartSvg.appendChild(svg("text", { x: xAt(n), y: H - 8, class: "tick", "text-anchor": n && n === last ? "end" : "middle" }, n));
    }
    chartSvg.appendChild(svg("line", { x1: L, x2: W - R, y1: yAt(0), y2: yAt(0), class: "axis" }));
    chartSvg.appendChild(svg("line", { x1: L, x2: L, y1: T, y2: yAt(0), class: "axis" }));
    // a click anywhere on the plot goes to the nearest turn
    const hit = svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "hit" });
    hit.addEventListener("click", (e) => {
      const box = chartSvg.getBoundingClientRect();
      const x = ((e.clientX - box.left) / box.width) * W;
      go(Math.round(((x - L) / (W - L - R)) * last));
    });
    chartSvg.appendChild(hit);
    for (const [n, leader] of game.lead) {
      const line = svg("line", { x1: xAt(n), x2: xAt(n), y1: T, y2: yAt(0), class: "lead-change" });
      line.setAttribute("stroke", colourOf(leader));
      line.appendChild(svg("title", {}, "turn " + n + ": " + playerName(leader) + " takes the lead"));
      chartSvg.appendChild(line);
      const mark = svg("path", { d: "M" + xAt(n) + " " + (yAt(0) - 1) + " l-5 -8 h10 z", class: "lead-mark" });
      mark.setAttribute("fill", colourOf(leader));
      mark.appendChild(svg("title", {}, "turn " + n + ": " + playerName(leader) + " takes the lead"));
      chartSvg.appendChild(mark);
    }
    series.forEach((values, p) => {
      const line = svg("polyline", { points: values.map((v, n) => xAt(n) + "," + yAt(v)).join(" "), class: "series" });
      line.setAttribute("stroke", colourOf(p));
      chartSvg.appendChild(line);
    });
    turns.forEach((t, i) => {
      const n = i + 1;
      if (!(t.p >= 0 && t.p < players.length)) return;
      const v = series[t.p][n];
      const dot = svg("circle", { cx: xAt(n), cy: yAt(v), r: 3, class: "pt", "data-n": n });
      dot.setAttribute("fill", colourOf(t.p));
      dot.appendChild(svg("title", {}, "turn " + n + ": " + playerName(t.p) + " " + v));
      dot.addEventListener("click", (e) => { e.stopPropagation(); go(n); });
      chartSvg.appendChild(dot);
      if (t.q) {
        const r = 8, cx = xAt(n), cy = yAt(v);
        const pts = [];
        for (let k = 0; k < 10; k++) {
          const a = -Math.PI / 2 + (k * Math.PI) / 5, rad = k % 2 ? r * 0.45 : r;
          pts.push((cx + rad * Math.cos(a)).toFixed(1) + "," + (cy + rad * Math.sin(a)).toFixed(1));
        }
        const star = svg("polygon", { points: pts.join(" "), class: "pt qwirkle", "data-n": n, stroke: "#1d1d1f", "stroke-width": 0.8 });
        star.setAttribute("fill", colourOf(t.p));
        star.appendChild(svg("title", {}, "turn " + n + ": " + playerName(t.p) + (t.q > 1 ? " completes " + t.q + " Qwirkles" : " completes a Qwirkle")));
        star.addEventListener("click", (e) => { e.stopPropagation(); go(n); });
        chartSvg.appendChild(star);
      }
    });
    chartSvg.appendChild(chartCursor);
  }

  function buildLegend() {
    const legend = document.getElementById("legend");
    players.forEach((name, p) => {
      const item = el("span");
      const sw = el("span", { class: "swatch" });
      sw.style.background = colourOf(p);
      item.appendChild(sw);
      item.appendChild(document.createTextNode(name));
      legend.appendChild(item);
    });
    legend.appendChild(el("span", { class: "tick" }, "★ Qwirkle  ▼ lead change"));
  }

  function drawCursor(n) {
    clear(chartCursor);
    chartCursor.appendChild(svg("line", { x1: xAt(n), x2: xAt(n), y1: T, y2: yAt(0), class: "cursor" }));
    const label = svg("text", { x: xAt(n) + (n > last / 2 ? -4 : 4), y: T + 10, class: "cursor-label",
      "text-anchor": n > last / 2 ? "end" : "start" }, "turn " + n);
    chartCursor.appendChild(label);
    clear(lostCursor);
    if (n > 0) lostCursor.appendChild(svg("line", { x1: lx(n), x2: lx(n), y1: T, y2: ly(0), class: "cursor" }));
    clear(winCursor);
    if (n > 0 && win) winCursor.appendChild(svg("line", { x1: wx(n), x2: wx(n), y1: T, y2: LH - B, class: "cursor" }));
  }

  // -- what each turn lost: a bar per judged turn, in the mover's colour ---------

  const lostSvg = document.getElementById("lost-chart");
  const lost = game.lost; // values and the axis' round values come worked out
  let LW = 360;
  const LH = 160;
  const lostTop = lost.ticks[lost.ticks.length - 1];
  const lx = (n) => L + (last ? ((n - 0.5) / last) * (LW - L - R) : 0);
  const ly = (v) => T + (1 - v / lostTop) * (LH - T - B);
  const lostCursor = svg("g");

  function drawLost() {
    clear(lostSvg);
    LW = widthOf(lostSvg);
    lostSvg.setAttribute("viewBox", "0 0 " + LW + " " + LH);
    document.getElementById("lost-title").textContent = lost.kind === "value" ? "Value lost per turn" :
      lost.kind === "inferred" ? "Points lost per turn (inferred)" :
      lost.kind === "mixed" ? "Points lost per turn (some inferred)" : "Points lost per turn";
    for (const v of lost.ticks) {
      lostSvg.appendChild(svg("line", { x1: L, x2: LW - R, y1: ly(v), y2: ly(v), class: "grid" }));
      lostSvg.appendChild(svg("text", { x: L - 6, y: ly(v) + 4, class: "tick", "text-anchor": "end" }, compact.format(v)));
    }
    for (const n of game.xticks) {
      if (n > 0) lostSvg.appendChild(svg("text", { x: lx(n), y: LH - 8, class: "tick", "text-anchor": n === last ? "end" : "middle" }, n));
    }
    lostSvg.appendChild(svg("line", { x1: L, x2: LW - R, y1: ly(0), y2: ly(0), class: "axis" }));
    const hit = svg("rect", { x: L, y: T, width: LW - L - R, height: LH - T - B, class: "hit" });
    hit.addEventListener("click", (e) => {
      const box = lostSvg.getBoundingClientRect();
      const x = ((e.clientX - box.left) / box.width) * LW;
      go(Math.max(1, Math.round(((x - L) / (LW - L - R)) * last + 0.5)));
    });
    lostSvg.appendChild(hit);
    const barWidth = Math.max(1, ((LW - L - R) / Math.max(1, last)) * 0.8);
    lost.values.forEach((v, i) => {
      const n = i + 1;
      const t = turns[i];
      // a turn not judged gets no bar; a turn that lost nothing a thin mark on the axis
      if (v === null) return;
      const bar = svg("rect", { x: lx(n) - barWidth / 2, y: ly(v), width: barWidth, height: Math.max(1, ly(0) - ly(v)),
        class: "bar", "data-n": n, "data-lost": v });
      bar.setAttribute("fill", colourOf(t.p));
      bar.appendChild(svg("title", {}, "turn " + n + ": " + playerName(t.p) + " lost " + v + (lost.kind === "value" ? " of value" : " points")));
      bar.addEventListener("click", () => go(n));
      lostSvg.appendChild(bar);
    });
    lostSvg.appendChild(lostCursor);
  }

  // -- the first player's win chance after each turn (a model: docs/analysis.md) ----

  const winSvg = document.getElementById("win-chart");
  const win = game.win; // null: no chance (more players, or the board not known)
  const wx = (n) => L + (last ? (n / last) * (WW - L - R) : 0);
  const wy = (v) => T + (1 - v) * (LH - T - B);
  let WW = 360;
  const winCursor = svg("g");

  function drawWin() {
    const box = document.getElementById("win-box");
    if (!win) {
      box.style.display = "none";
      return;
    }
    clear(winSvg);
    WW = widthOf(winSvg);
    winSvg.setAttribute("viewBox", "0 0 " + WW + " " + LH);
    const winTitle = document.getElementById("win-title");
    winTitle.textContent = "Win chance of " + playerName(0) + (win.inferred ? " (inferred)" : win.simulated ? " (simulated)" : " (estimated)");
    winTitle.title = win.basis;
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      winSvg.appendChild(svg("line", { x1: L, x2: WW - R, y1: wy(v), y2: wy(v), class: v === 0.5 ? "axis" : "grid" }));
      winSvg.appendChild(svg("text", { x: L - 6, y: wy(v) + 4, class: "tick", "text-anchor": "end" }, Math.round(100 * v) + "%"));
    }
    for (const n of game.xticks) {
      if (n > 0) winSvg.appendChild(svg("text", { x: wx(n), y: LH - 8, class: "tick", "text-anchor": n === last ? "end" : "middle" }, n));
    }
    const hit = svg("rect", { x: L, y: T, width: WW - L - R, height: LH - T - B, class: "hit" });
    hit.addEventListener("click", (e) => {
      const b = winSvg.getBoundingClientRect();
      go(Math.max(1, Math.round((((e.clientX - b.left) / b.width) * WW - L) / (WW - L - R) * last)));
    });
    winSvg.appendChild(hit);
    let points = "M" + wx(0) + "," + wy(0.5);
    win.values.forEach((v, i) => {  // a step a turn: the chance holds until the next turn with one
      if (v !== null) points += " H" + wx(i + 1) + " V" + wy(v);
    });
    points += " H" + wx(last);
    winSvg.appendChild(svg("path", { d: points, class: "line" }));
    for (const [n, kind, decisive] of win.marks) {
      const v = win.values[n - 1];
      const t = turns[n - 1];
      if (decisive) winSvg.appendChild(svg("circle", { cx: wx(n), cy: wy(v), r: 8, class: "decisive-ring" }));
      const mark = svg("circle", { cx: wx(n), cy: wy(v), r: kind === "blunder" ? 5 : 3.5, class: "mark", "data-n": n,
        "data-kind": kind, "data-decisive": decisive ? "yes" : "no" });
      mark.setAttribute("fill", colourOf(t.p));
      const said = kind === "decisive" ? "decisive" : "a " + kind + (decisive ? ", decisive" : "");
      mark.appendChild(svg("title", {}, "turn " + n + ": " + playerName(t.p) + ", " + said));
      mark.addEventListener("click", () => go(n));
      winSvg.appendChild(mark);
    }
    winSvg.appendChild(winCursor);
  }

  // -- players, tracker, move list --------------------------------------------

  const playersBox = document.getElementById("players");
  const playerParts = players.map((name, p) => {
    const card = el("div", { class: "player", "data-player": p });
    const head = el("div", { class: "player-head" });
    const sw = el("span", { class: "swatch" });
    sw.style.background = colourOf(p);
    head.appendChild(sw);
    head.appendChild(el("span", { class: "player-name" }, name));
    const score = el("span", { class: "score", "data-seat": p, "data-score": 0 }, 0);
    head.appendChild(score);
    card.appendChild(head);
    const rack = el("div", { class: "rack" });
    card.appendChild(rack);
    const s = game.summary[p];
    if (s) {
      const acc = s.accuracy === null ? "n/a" : (100 * s.accuracy).toFixed(1) + "%";
      // a player with no rack recorded: what the same tiles and the racks inferred tell, not "accuracy over 0 turns"
      const known = s.analysed || (!s.same && !s.inf) ? "accuracy " + acc + " over " + plural(s.analysed, "turn") +
        ", " + plural(s.lost, "point") + " lost, " : "";
      const unrecorded = [];
      if (s.same) unrecorded.push("with the same tiles, " + plural(s.same[0], "point") + " more over " + plural(s.same[1], "turn"));
      if (s.inf) unrecorded.push("inferred, " + s.inf[0].toFixed(1) + " points lost expected over " + plural(s.inf[1], "turn") +
        " (" + s.inf[2] + " racks drawn a turn)");
      card.appendChild(el("div", { class: "stats" }, "whole game: " + known + plural(s.made, "Qwirkle") + " made, " +
        (s.missed === null ? "n/a" : s.missed) + " missed, " + plural(s.gifts, "gift") +
        (unrecorded.length ? "; the racks not recorded: " + unrecorded.join("; ") : "")));
    }
    playersBox.appendChild(card);
    return { card, score, rack };
  });

  function drawPlayers(n) {
    const totals = n === 0 ? game.scores0 : turns[n - 1].tot;
    const state = states[n];
    playerParts.forEach((part, p) => {
      const v = totals[p] || 0;
      part.score.textContent = String(v);
      part.score.setAttribute("data-score", v);
      part.card.classList.toggle("to-move", state.pov === p && !state.ended);
      part.card.classList.toggle("leader", state.leader === p);
      clear(part.rack);
      part.rack.appendChild(el("span", { class: "rack-label" }, "rack"));
      const [known, size] = state.racks[p];
      for (const t of known) part.rack.appendChild(miniTile(t));
      if (size === null) {
        part.rack.appendChild(el("span", { class: "rack-label" }, known.length ? "and more unknown" : "unknown"));
      } else {
        for (let k = known.length; k < size; k++) part.rack.appendChild(el("span", { class: "unknown", title: "unknown tile" }, "?"));
        if (size === 0) part.rack.appendChild(el("span", { class: "rack-label" }, "empty"));
      }
    });
  }

  const trackerCells = [];
  {
    const table = document.getElementById("tracker");
    for (const row of game.grid) { // a row per colour, a column per shape: the tile numbers come laid out
      const tr = el("tr");
      for (const t of row) {
        const td = el("td", { "data-unseen": game.tiles[t], title: game.tiles[t] });
        const icon = miniTile(t);
        const count = el("span");
        tr.appendChild(td);
        trackerCells.push({ t, td, icon, count });
      }
      table.appendChild(tr);
    }
  }

  function drawTracker(n) {
    const state = states[n];
    const note = document.getElementById("tracker-note");
    const bag = state.bag === null ? "bag: unknown" : "bag: " + plural(state.bag, "tile");
    if (!state.unseen) {
      note.textContent = "Not known here (the board is not known); " + bag + ".";
    } else {
      const total = state.unseen.reduce((a, b) => a + b, 0);
      const who = state.pov >= 0 ? "by " + playerName(state.pov) + " (to move)" : "by anyone (not on the board)";
      note.textContent = "Unseen " + who + ": " + plural(total, "tile") + "; " + bag + ".";
    }
    for (const { t, td, icon, count } of trackerCells) {
      clear(td);
      td.appendChild(icon);
      const v = state.unseen ? state.unseen[t] : null;
      count.textContent = v === null ? "?" : String(v);
      td.appendChild(count);
      td.className = v === null ? "unknown" : v === 0 ? "none" : "";
      td.title = game.tiles[t] + ": " + (v === null ? "unknown" : v + " unseen");
    }
  }

  const movesTable = document.getElementById("moves");
  const moveBodies = [];

  function detailLine(cls, code, text) {
    const div = el("div", { class: cls });
    if (code) div.appendChild(el("span", { class: "code" }, code));
    div.appendChild(document.createTextNode((code ? ": " : "") + text));
    return div;
  }

  function buildMoves() {
    const head = el("thead");
    const hr = el("tr");
    for (const h of ["#", "player", "move", "claim", "calc", "totals"]) hr.appendChild(el("th", {}, h));
    head.appendChild(hr);
    movesTable.appendChild(head);
    const start = el("tbody", { "data-n": 0 });
    const sr = el("tr");
    sr.appendChild(el("td", { class: "num" }, 0));
    sr.appendChild(el("td", { colspan: 4 }, "start" + (game.scores0.some((v) => v) ? " (scores carried in)" : "")));
    sr.appendChild(el("td", { class: "num" }, game.scores0.join(" · ")));
    start.appendChild(sr);
    start.addEventListener("click", () => go(0));
    movesTable.appendChild(start);
    moveBodies.push(start);
    turns.forEach((t, i) => {
      const n = i + 1;
      const body = el("tbody", { "data-n": n });
      const tr = el("tr");
      tr.appendChild(el("td", { class: "num" }, n));
      tr.appendChild(el("td", { class: "who" }, playerName(t.p)));
      let move = t.a;
      if (t.text) move += " " + t.text;
      else if (t.a === "place") move += " (tiles not recorded)";
      tr.appendChild(el("td", { class: "move" }, move));
      tr.appendChild(el("td", { class: "num" }, t.claim === null ? "" : t.claim));
      const calc = el("td", { class: "num" + (t.differs ? " differs" : ""), title: t.score || "" },
        t.calc === null ? "" : t.calc + (t.differs ? " !" : ""));
      tr.appendChild(calc);
      tr.appendChild(el("td", { class: "num" }, t.tot.join(" · ")));
      body.appendChild(tr);
      const details = [];
      for (const [code, severity, message] of t.f) details.push(detailLine("finding " + severity, code, message));
      for (const [code, message] of t.fl || []) details.push(detailLine("flag", code, message));
      if (t.an && t.an.lost) {
        details.push(detailLine("analysis", "", plural(t.an.lost, "point") + " lost: the best move" +
          (t.cands && t.cands.length ? ", " + t.cands.find((c) => c.lost === 0).text + "," : "") + " scored " + t.an.best +
          (t.an.rank === null || t.an.rank === undefined ? " (" : " (rank " + t.an.rank + " of ") +
          plural(t.an.moves, "legal move") + "; rack " + t.an.rack + ")"));
      }
      if (t.verdict) {
        const v = t.verdict; // (a better-move flag above already says it all)
        if (!v.better) {
          details.push(detailLine("verdict", v.engine, v.value_lost ? "value lost " + v.value_lost + " (the best is worth " +
            v.best_value + ", the move played " + v.played_value + ")" + (t.best ? "; best: " + t.best.text : "") : "no value lost (worth " + v.played_value + ")"));
        }
        body.setAttribute("data-value-lost", v.value_lost);
      }
      if (t.exact !== undefined && t.exact !== null) {
        details.push(detailLine("verdict", "endgame", "exact loss against perfect play: " + plural(t.exact, "point")));
      }
      if (t.q) details.push(detailLine("qwirkle", "", t.q > 1 ? "\u2605 " + t.q + " Qwirkles" : "\u2605 Qwirkle"));
      if (t.comment !== null && t.comment !== undefined) details.push(detailLine("comment", "", t.comment));
      if (details.length) {
        const dr = el("tr", { class: "detail" });
        dr.appendChild(el("td"));
        const td = el("td", { colspan: 5 });
        for (const d of details) td.appendChild(d);
        dr.appendChild(td);
        body.appendChild(dr);
      }
      body.addEventListener("click", () => go(n));
      movesTable.appendChild(body);
      moveBodies.push(body);
    });
  }

  let highlighted = null;

  function drawMoves(n) {
    if (highlighted !== null) highlighted.classList.remove("current");
    highlighted = moveBodies[n];
    highlighted.classList.add("current");
    const box = document.getElementById("moves-scroll");
    const row = moveBodies[n];
    const head = movesTable.tHead ? movesTable.tHead.offsetHeight : 0;
    const top = row.offsetTop - head;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (row.offsetTop + row.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = row.offsetTop + row.offsetHeight - box.clientHeight;
    }
  }

  // -- the candidates at the current turn -------------------------------------

  const candsTable = document.getElementById("cands");

  function fmtValue(v) {
    return v === null || v === undefined ? "" : String(v);
  }

  function drawCands(n) {
    clear(candsTable);
    const note = document.getElementById("cands-note");
    const turn = n > 0 ? turns[n - 1] : null;
    if (turn && turn.best && turn.best.by === "same-tiles") {  // the rack not recorded: judged by the tiles played
      const inf = turn.inferred;
      note.textContent = "Turn " + n + ", " + playerName(turn.p) + ": the rack is not recorded. With the same tiles: " +
        turn.best.text + " scores " + turn.best.s + (turn.best.gain ? " (" + turn.best.gain + " more than played)." :
        " (as played).") + (turn.best.pl ? "" : " B draws it.") + (inf ? " Inferred over " + inf.n + " racks drawn: " +
        inf.loss.toFixed(1) + " points lost expected, a better move in " + Math.round(100 * inf.better) + " %" +
        (inf.text ? " (most often " + inf.text + " for " + inf.s + ", " + Math.round(100 * inf.share) + " %)" : "") + "." : "");
      return;
    }
    if (turn && turn.inferred && (!turn.cands || !turn.cands.length)) {  // an exchange, its rack not recorded
      const inf = turn.inferred;
      note.textContent = "Turn " + n + ", " + playerName(turn.p) + ": the rack is not recorded. Inferred over " + inf.n +
        " racks drawn: " + inf.loss.toFixed(1) + " points lost expected, a better move in " + Math.round(100 * inf.better) +
        " %" + (inf.text ? " (most often " + inf.text + " for " + inf.s + ", " + Math.round(100 * inf.share) + " %; B draws it)" : "") + ".";
      return;
    }
    if (!turn || !turn.cands || !turn.cands.length) {
      note.textContent = !turn ? "Step to a turn to see its best moves." :
        "Not judged" + (turn.an && turn.an.note ? ": " + turn.an.note : " (the rack or the board is not known).");
      return;
    }
    const engine = turn.verdict ? turn.verdict.engine : null;
    note.textContent = "Turn " + n + ", " + playerName(turn.p) + ": the " + plural(turn.cands.length, "best-scoring move") +
      (engine ? ", by " + engine + " value" : "") + ". Click one to draw it; B hides the ghosts.";
    const head = el("tr");
    for (const h of ["", "move", "score", "lost"].concat(engine ? ["value", "value lost"] : [])) head.appendChild(el("th", {}, h));
    candsTable.appendChild(head);
    turn.cands.forEach((c, k) => {
      const tr = el("tr", { "data-cand": k, "data-score": c.s, "data-lost": c.lost, class: "cand" + (k === picked ? " picked" : "") +
        (c.pl ? " played" : "") });
      if (c.v !== undefined) { tr.setAttribute("data-value", c.v); tr.setAttribute("data-value-lost", c.vl); }
      tr.appendChild(el("td", { class: "num" }, k + 1));
      const move = el("td", { class: "move" }, c.text);
      if (c.pl) move.appendChild(el("span", { class: "tag" }, " played"));
      if (c.q) move.appendChild(el("span", { class: "qwirkle" }, " \u2605"));
      tr.appendChild(move);
      tr.appendChild(el("td", { class: "num" }, c.s));
      tr.appendChild(el("td", { class: "num" }, c.lost));
      if (engine) {
        tr.appendChild(el("td", { class: "num" }, fmtValue(c.v)));
        tr.appendChild(el("td", { class: "num" }, fmtValue(c.vl)));
      }
      tr.addEventListener("click", () => {
        picked = picked === k ? null : k;
        showBest = true;
        draw(current);
      });
      candsTable.appendChild(tr);
    });
  }

  // -- the legend of colours and shapes ---------------------------------------------

  function buildTileLegend() {
    const box = document.getElementById("tile-legend");
    const colours = el("div", { class: "legend-row" });
    game.legend.colours.forEach(([code, name], c) => {
      const item = el("span", { class: "legend-item", "data-colour": code });
      const chip = svg("svg", { class: "mini", viewBox: "-0.5 -0.5 1 1", "aria-hidden": "true" });
      chip.appendChild(svg("rect", { x: -0.44, y: -0.44, width: 0.88, height: 0.88, rx: 0.12, ry: 0.12, fill: "var(--face)" }));
      chip.appendChild(svg("rect", { x: -0.26, y: -0.26, width: 0.52, height: 0.52, rx: 0.06, ry: 0.06, fill: game.colours[c] }));
      item.appendChild(chip);
      item.appendChild(el("span", { class: "code" }, code));
      item.appendChild(document.createTextNode(" " + name));
      colours.appendChild(item);
    });
    const shapes = el("div", { class: "legend-row" });
    game.legend.shapes.forEach(([code, name], k) => {
      const item = el("span", { class: "legend-item", "data-shape": code });
      const chip = svg("svg", { class: "mini", viewBox: "-0.5 -0.5 1 1", "aria-hidden": "true" });
      chip.appendChild(svg("rect", { x: -0.44, y: -0.44, width: 0.88, height: 0.88, rx: 0.12, ry: 0.12, fill: "var(--face)" }));
      const use = svg("use", { href: "#shape-" + game.shapes[k], x: -0.5, y: -0.5, width: 1, height: 1 });
      use.setAttribute("fill", "#e8e8e8");
      chip.appendChild(use);
      item.appendChild(chip);
      item.appendChild(el("span", { class: "code" }, code));
      item.appendChild(document.createTextNode(" " + name));
      shapes.appendChild(item);
    });
    box.appendChild(colours);
    box.appendChild(shapes);
  }

  // -- header and stepping ---------------------------------------------------

  function drawHeader() {
    document.getElementById("title").textContent = game.title || "Qwirkle game";
    document.title = (game.title || "Qwirkle game") + " - qwirkle view";
    const final = last ? turns[last - 1].tot : game.scores0;
    const result = players.map((name, p) => name + " " + final[p]).join(" · ");
    const how = turns.every((t) => t.calc !== null) ? " (computed)" : " (computed where the tiles are recorded, else as claimed)";
    document.getElementById("result").textContent = result + how + " · " + plural(last, "turn") +
      (game.end ? " · end: " + game.end : "");
    document.getElementById("meta").textContent = game.meta.map(([k, v]) => k + ": " + v).join(" · ");
    const list = document.getElementById("game-findings");
    for (const [code, severity, message] of game.findings) {
      const li = el("li", { class: severity });
      li.appendChild(el("span", { class: "code" }, code));
      li.appendChild(document.createTextNode(": " + message));
      list.appendChild(li);
    }
    document.getElementById("notes").textContent = game.notes.join(" ");
    if (!game.board) document.getElementById("layout").classList.add("no-board");
  }

  const slider = document.getElementById("slider");

  function turnText(n) {
    if (n === 0) return "Before the first turn";
    const t = turns[n - 1];
    let text = playerName(t.p) + ": " + t.a + (t.text ? " " + t.text : "");
    const pts = t.calc !== null ? t.calc : t.claim;
    if (pts !== null) text += ", " + plural(pts, "point");
    if (t.q) text += t.q > 1 ? " (" + t.q + " Qwirkles)" : " (Qwirkle)";
    if (states[n].ended) text += "; the game ends (" + states[n].ended + ")";
    return text;
  }

  function draw(n) {
    current = n;
    root.setAttribute("data-turn", String(n));
    slider.value = String(n);
    // "after turn N": the board once turn N is played (docs: "Turn N"); --turn N of the commands is before it
    document.getElementById("turn-label").textContent = n === 0 ? "before turn 1" : "after turn " + n + " of " + last;
    document.getElementById("turn-text").textContent = turnText(n);
    if (game.board) drawBoard(n);
    drawCands(n);
    const toggle = document.getElementById("best-toggle");
    toggle.setAttribute("aria-pressed", showBest ? "true" : "false");
    toggle.classList.toggle("on", showBest);
    drawCursor(n);
    drawPlayers(n);
    drawTracker(n);
    drawMoves(n);
  }

  function go(n) {
    const k = Math.max(0, Math.min(last, Math.round(Number(n))));
    if (Number.isNaN(k)) return;
    if (k !== current) picked = null; // a picked candidate belongs to its turn
    draw(k);
    const hash = "#turn=" + k;
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (err) {
        location.hash = hash;
      }
    }
  }

  function fromHash() {
    const m = /^#turn=(\d+)$/.exec(location.hash);
    return m ? Math.min(last, Number(m[1])) : null;
  }

  slider.max = String(last);
  slider.addEventListener("input", () => go(slider.value));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(current - 1));
  document.getElementById("next").addEventListener("click", () => go(current + 1));
  document.getElementById("last").addEventListener("click", () => go(last));
  function toggleBest() {
    showBest = !showBest;
    if (!showBest) picked = null;
    draw(current);
  }
  document.getElementById("best-toggle").addEventListener("click", toggleBest);
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "b" || e.key === "B") {
      e.preventDefault();
      toggleBest();
      return;
    }
    if (e.target === slider) return; // the slider steps itself
    const to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  window.addEventListener("hashchange", () => {
    const n = fromHash();
    if (n !== null && n !== current) draw(n);
  });

  // a swipe steps: to the left the next turn, to the right the previous (not on the slider, which slides)
  {
    let touch = null;
    document.addEventListener("touchstart", (e) => {
      touch = e.touches.length === 1 && e.target !== slider ?
        { x: e.touches[0].clientX, y: e.touches[0].clientY, at: Date.now(), vx: view.x, vy: view.y, user: view.user,
          board: boardSvg.contains(e.target) } : null;
    }, { passive: true });
    document.addEventListener("touchend", (e) => {
      if (!touch || e.changedTouches.length !== 1) return;
      const dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
      const quick = Date.now() - touch.at < 600;
      const start = touch;
      touch = null;
      if (!quick || Math.abs(dx) < 50 || Math.abs(dx) < 2 * Math.abs(dy)) return;
      if (start.board) { // a flick on the board steps rather than pans
        view.x = start.vx; view.y = start.vy; view.user = start.user;
        setViewBox();
      }
      go(current + (dx < 0 ? 1 : -1));
    });
  }

  window.addEventListener("resize", () => {
    drawChart();
    drawLost();
    drawWin();
    drawCursor(current);
  });

  drawHeader();
  buildLegend();
  buildTileLegend();
  drawChart();
  drawLost();
  drawWin();
  buildMoves();
  const start = fromHash();
  draw(start === null ? last : start);
})();
