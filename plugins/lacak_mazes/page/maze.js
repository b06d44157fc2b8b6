// The mazes page: every registered generator, the suggested start and end, the solution,
// texture statistics, and animations of the maze being carved and of a solver exploring.
// What is shown at first is what `lacak maze generate` shows: the maze alone, its start
// and end and its solution when asked for (the defaults the maze kind declares for a made
// maze, its `prepare` options in the catalogue); the solver's search order only when asked.
// Mazes are drawn from the documented maze JSON (cells of open-side bitmasks N=1 E=2 S=4
// W=8, [row, col] coordinates). A maze on another grid (hexagons, triangles, octagons,
// rings, a mask, a wrap: every grid lacak_mazes.grids knows, a third party's too) is drawn
// from the shapes the server gives with it (the generate answer's `geometry`: each cell's
// sides and centre, lacak_mazes.geometry), so no grid's shape is decided here; its links,
// in the order the generator made them, are its carving. Everything else comes from
// lacak through the API: the
// suggested start and end (the maze plugin's), the solution and the exploration order,
// the generator's own carving order (its option 'carving'), and the SVG, PNG and JSON
// downloads (lacak's own renderer, the files `lacak maze generate` writes).
// The maze plugin's page of lacak serve (the maze kind's lacak.Page, served under
// /pages/maze/), built on the pages' shared helpers (/static/ui.js; docs/web.md).

import {api, count, download, errorDisplay, field, fileSafe, h, heuristicPicker, numbers,
  optionInputs, optionPairs, select, strategyPicker} from "/static/ui.js";

const N = 1, E = 2, S = 4, W = 8;
const STEPS = [[N, -1, 0], [E, 0, 1], [S, 1, 0], [W, 0, -1]];
/** A carving step's side: its bit, the neighbour's row and column change, the neighbour's bit. */
const SIDES = {N: [N, -1, 0, S], E: [E, 0, 1, W], S: [S, 1, 0, N], W: [W, 0, -1, E]};

/** Breadth-first order of the cells reachable from start (the reveal of a maze whose
 *  generator does not report its carving order). */
function flood(maze, start) {
  const {height, width, cells} = maze;
  const distance = new Int32Array(height * width).fill(-1);
  const order = [start];
  distance[start[0] * width + start[1]] = 0;
  for (let i = 0; i < order.length; i++) {
    const [r, c] = order[i];
    for (const [bit, dr, dc] of STEPS) {
      if (!(cells[r][c] & bit)) continue;
      const nr = r + dr, nc = c + dc;
      if (nr < 0 || nc < 0 || nr >= height || nc >= width || distance[nr * width + nc] >= 0) continue;
      distance[nr * width + nc] = distance[r * width + c] + 1;
      order.push([nr, nc]);
    }
  }
  return order;
}

/** The colours of marked carving steps (a carving's "marks": hunt-and-kill's hunts), for
 *  the step just taken and for the cells such steps joined so far; other steps are orange. */
export const MARKS = {
  hunt: {head: "#8e44ad", next: "#d2b4de", joined: "#ebdef0",
    label: "hunt step: the scan found an unvisited cell next to the maze and joined it"},
};
const OTHER_MARK = {head: "#2e86c1", next: "#aed6f1", joined: "#d6eaf8"};
const WALK = {head: "#f5b041", next: "#fad7a0"};

/** The animation of a generator's own carving: frame k is the maze after its first k
 *  steps, from every wall standing (adds "passages") or one open room (adds "walls").
 *  Frames are reached by applying or undoing steps (each toggles one wall), so playing
 *  costs one step a frame. A step its carving marks (hunt-and-kill's "hunt") is the
 *  frame's head's mark, and the cells marked steps joined so far are the frame's joined. */
export function carvingFrames(maze, carving) {
  const {height, width} = maze;
  const steps = carving.steps;
  const markOf = new Array(steps.length).fill(null);
  const marked = [];  // [step index, mark], in order
  for (const [mark, indices] of Object.entries(carving.marks || {})) {
    for (const i of indices) { markOf[i] = mark; marked.push([i, mark]); }
  }
  marked.sort((a, b) => a[0] - b[0]);
  const walls = carving.adds === "walls";
  const cells = new Uint8Array(height * width);
  if (walls) {  // one open room
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        for (const [bit, dr, dc] of STEPS) {
          const nr = r + dr, nc = c + dc;
          if (nr >= 0 && nc >= 0 && nr < height && nc < width) cells[r * width + c] |= bit;
        }
      }
    }
  }
  let applied = 0;
  const toggle = (i) => {
    const [r, c, side] = steps[i];
    const [bit, dr, dc, back] = SIDES[side];
    cells[r * width + c] ^= bit;
    cells[(r + dr) * width + c + dc] ^= back;
  };
  return {length: steps.length + 1, own: true,
    frame: (k) => {
      while (applied < k) toggle(applied++);
      while (applied > k) toggle(--applied);
      const joined = [];
      for (const [i, mark] of marked) {
        if (i >= k) break;
        joined.push([steps[i][0], steps[i][1], mark]);
      }
      return {cells, explored: [], path: null, head: k ? steps[k - 1] : null,
        mark: k ? markOf[k - 1] : null, joined, hidden: walls ? null : (i) => cells[i] === 0};
    }};
}

function shade(fraction) {  // expansion order: early cells yellow, late ones blue
  const hue = 55 + 165 * fraction;
  return `hsl(${hue}, 75%, 78%)`;
}

/** A maze on a grid as the page draws it, from its JSON (`instance`: cells by id, links
 *  as pairs of ids in the order made, tunnels, weights) and the server's shapes
 *  (`geometry`, lacak_mazes.geometry: flat corners, each cell's sides as [neighbour, k,
 *  k corners], where each cell's sides begin, centres, the longest step). */
export function gridView(instance, geometry) {
  const size = instance.cells.length;
  const key = (id) => (Array.isArray(id) ? id.join(",") : String(id));
  const index = new Map(instance.cells.map((id, i) => [key(id), i]));
  const cellOf = (cell) => (typeof cell === "number" ? cell : index.get(key(cell)));
  const links = instance.links.map(([a, b]) => [cellOf(a), cellOf(b)]);
  const order = new Map();  // a * size + b (both ways) -> the link's place in the carving
  const first = new Int32Array(size).fill(links.length + 1);  // the step that joins a cell
  links.forEach(([a, b], i) => {
    order.set(a * size + b, i); order.set(b * size + a, i);
    first[a] = Math.min(first[a], i); first[b] = Math.min(first[b], i);
  });
  const crossed = new Set();  // sides a tunnel goes through: no wall drawn there
  const tunnelled = new Set();  // steps through a tunnel: not a wrapped grid's seam
  for (const tunnel of instance.tunnels || []) {
    const [a, under, b] = tunnel.map(cellOf);
    for (const end of [a, b]) { crossed.add(under * size + end); crossed.add(end * size + under); }
    tunnelled.add(a * size + b); tunnelled.add(b * size + a);
  }
  const {points, first: begins, centres} = geometry;
  const sides = [];  // each cell's sides: [neighbour, [x, y, x, y, ...]]
  for (let cell = 0; cell < size; cell++) {
    const own = [];
    for (let at = begins[cell]; at < begins[cell + 1];) {
      const neighbour = geometry.sides[at], k = geometry.sides[at + 1];
      const line = [];
      for (let j = 0; j < k; j++) {
        const corner = geometry.sides[at + 2 + j];
        line.push(points[2 * corner], points[2 * corner + 1]);
      }
      own.push([neighbour, line]);
      at += 2 + k;
    }
    sides.push(own);
  }
  const weights = instance.weights || null;
  let lightest = Infinity, heaviest = -Infinity;
  for (const w of weights || []) { lightest = Math.min(lightest, w); heaviest = Math.max(heaviest, w); }
  return {size, key, index, cellOf, links, order, first, crossed, tunnelled, sides, weights,
    lightest, heaviest, width: geometry.width, height: geometry.height, step: geometry.step,
    bridges: geometry.bridges || [],
    centre: (cell) => [centres[2 * cell], centres[2 * cell + 1]],
    id: (cell) => instance.cells[cell]};
}

/** The frames of a grid maze's carving: frame k is the maze after its first k links
 *  (the order the generator made them), the cells no link has reached yet dark. */
export function gridCarvingFrames(view) {
  return {length: view.links.length + 1, own: true,
    frame: (k) => ({opened: k, explored: [], path: null,
      head: k ? view.links[k - 1] : null, hidden: (cell) => view.first[cell] >= k})};
}

/** A cell's fill for its weight: darker costs more (as lacak's own pictures shade it). */
function weightShade(weight, lightest, heaviest) {
  const share = heaviest <= lightest ? 0 : (weight - lightest) / (heaviest - lightest);
  const level = Math.round(245 - 135 * share);
  return `rgb(${level}, ${level}, ${Math.min(255, level + 10)})`;
}

/** Read a mask file the way `lacak maze generate --mask` does, as the generators' option
 *  `mask` takes it (rows between "/"): ASCII art (X, x or # no cell; . or a space a
 *  cell; short rows padded with cells), or a PNG (a pixel darker than half grey is no
 *  cell; transparent is white). A picture larger than maxSide pixels a side is scaled
 *  down to it. At most maxText characters (the option's bound): a longer mask is refused. */
export async function readMaskFile(file, {maxText = 20000, maxSide = 100} = {}) {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b);
  let rows;
  if (png) {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const board = document.createElement("canvas");
    board.width = width; board.height = height;
    const ctx = board.getContext("2d", {willReadFrequently: true});
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(bitmap, 0, 0, width, height);
    const data = ctx.getImageData(0, 0, width, height).data;
    rows = [];
    for (let r = 0; r < height; r++) {
      let row = "";
      for (let c = 0; c < width; c++) {
        const i = 4 * (r * width + c);
        row += (data[i] * 299 + data[i + 1] * 587 + data[i + 2] * 114) / 1000 < 128 ? "X" : ".";
      }
      rows.push(row);
    }
  } else {
    if (file.size > 4 * maxText) throw new Error(`the mask file has ${count(file.size)} bytes: a mask is at most ${count(maxText)} characters`);
    const lines = (await file.text()).replace(/\r\n?/g, "\n").split(/[\n/]/);
    while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
    while (lines.length && !lines[0].trim()) lines.shift();
    const width = Math.max(0, ...lines.map((line) => line.length));
    rows = lines.map((line, number) => [...line.padEnd(width)].map((ch) => {
      if ("Xx#".includes(ch)) return "X";
      if (". ".includes(ch)) return ".";
      throw new Error(`line ${number + 1} of the mask has '${ch}': a mask is '.' (a cell) and 'X' (none)`);
    }).join(""));
  }
  if (!rows.length || !rows[0].length) throw new Error("the mask is empty");
  if (!rows.some((row) => row.includes("."))) throw new Error("the mask switches every cell off");
  const text = rows.join("/");
  if (text.length > maxText) {
    throw new Error(`the mask is ${rows.length} × ${rows[0].length} cells: at most ${count(maxText)} characters here (rows between '/')`);
  }
  return {text, rows: rows.length, cols: rows[0].length, on: (text.match(/\./g) || []).length};
}

export default async function mazePage(root, catalogue) {
  const generators = catalogue.generators;
  const state = {maze: null, view: null, generated: null, request: null, ends: null,
    customEnds: false, solved: null, carving: null, frames: null, frame: 0, mode: null,
    timer: null, mask: null};
  const algorithm = select(generators.map((g) => [g.name, g.name]),
    generators.some((g) => g.name === "hunt-and-kill") ? "hunt-and-kill" : generators[0]?.name,
    {name: "algorithm"});
  const rows = h("input", {type: "number", min: "1", max: "200", value: "15", name: "rows"});
  const cols = h("input", {type: "number", min: "1", max: "200", value: "25", name: "cols"});
  const seed = h("input", {type: "number", min: "0", step: "1", placeholder: "random", name: "seed"});
  const generatorOptions = h("div");
  let optionsOf = null;
  const description = h("p", {class: "hint"});
  const chosen = () => generators.find((g) => g.name === algorithm.value);
  // a generator that takes 'carving' reports its carving order: the page asks for it itself
  const carves = (generator) => generator.options.some((o) => o.name === "carving");
  // the grid, a mask and braids: every lacak generator's options (GRID_OPTIONS), with
  // controls of their own; the grids offered are those the option accepts
  const OWN = ["carving", "grid", "mask", "braid"];
  const optionOf = (generator, name) => generator.options.find((o) => o.name === name);
  const gridChoices = optionOf(chosen() || generators[0] || {options: []}, "grid")?.accepts?.values || ["rect"];
  const gridSelect = select(gridChoices, "rect", {name: "grid", id: "grid"});
  const maskInput = h("input", {type: "file", name: "mask", id: "mask-file",
    accept: ".txt,.png,text/plain,image/png"});
  const maskNote = h("span", {class: "hint", id: "mask-note", text: "none"});
  const maskClear = h("button", {type: "button", text: "✕", id: "mask-clear", title: "no mask"});
  const braid = h("input", {type: "range", min: "0", max: "1", step: "0.05", value: "0", name: "braid", id: "braid"});
  const braidValue = h("span", {class: "position", id: "braid-value", text: "0"});
  const colsField = field("columns", cols);
  const rowsField = field("rows", rows);
  const gridControls = h("div", {class: "grid-controls"},
    field("grid", gridSelect, "The grid the maze is carved in: squares, wrapped squares, hexagons, triangles, octagons and squares, rings"),
    h("div", {class: "row mask-row"}, field("mask (.txt or .png)", maskInput,
      "Cells to leave out: ASCII art (X no cell, . a cell) or a black-and-white PNG (dark: no cell); the size is the mask's"),
    maskClear), maskNote,
    h("div", {class: "row"}, field("braid", braid, "The share of dead ends linked away, making loops"), braidValue));
  const maskBound = () => optionOf(chosen(), "mask")?.accepts?.max_length || 20000;
  const showGrid = () => {  // what the grid chosen and the generator allow
    const generator = chosen();
    const takes = Boolean(optionOf(generator, "grid"));
    const polar = gridSelect.value === "polar";
    gridSelect.disabled = !takes;
    braid.disabled = !takes || !optionOf(generator, "braid");
    maskInput.disabled = maskClear.disabled = !takes || polar || !optionOf(generator, "mask");
    gridControls.dataset.grid = takes ? gridSelect.value : "rect";
    rowsField.querySelector(".label").textContent = polar ? "rings" : "rows";
    rows.max = polar ? "100" : "200";
    colsField.hidden = polar;
    const masked = Boolean(state.mask) && !maskInput.disabled;
    rows.disabled = cols.disabled = masked;
    if (masked) { rows.value = String(state.mask.rows); cols.value = String(state.mask.cols); }
    maskNote.textContent = !state.mask ? "no mask" : `${state.mask.rows} × ${state.mask.cols}, ${count(state.mask.on)} cells` +
      (maskInput.disabled ? " (not used: this grid takes no mask)" : "");
  };
  const gridOptions = () => {  // the grid options as the API takes them (text), defaults left out
    const out = {};
    if (gridSelect.disabled) return out;
    if (gridSelect.value !== "rect") out.grid = gridSelect.value;
    if (state.mask && !maskInput.disabled) out.mask = state.mask.text;
    if (!braid.disabled && Number(braid.value) > 0) out.braid = braid.value;
    return out;
  };
  const showOptions = () => {
    const generator = chosen();
    optionsOf = optionInputs(generator.options.filter((o) => !OWN.includes(o.name)),
      {ranges: generator.metadata.option_ranges || {}});
    generatorOptions.replaceChildren(optionsOf.element);
    description.textContent = generator.description + (generator.metadata.texture ? ` — ${generator.metadata.texture}` : "");
    showGrid();
  };
  gridSelect.addEventListener("change", showGrid);
  braid.addEventListener("input", () => { braidValue.textContent = braid.value; });
  maskInput.addEventListener("change", async () => {
    errors.clear();
    const file = maskInput.files[0];
    if (!file) return;
    try {
      state.mask = await readMaskFile(file, {maxText: maskBound()});
    } catch (error) {
      state.mask = null;
      maskInput.value = "";
      showGrid();
      errors.show(error, {control: maskInput, stale: false});
      return;
    }
    showGrid();
  });
  maskClear.addEventListener("click", () => { state.mask = null; maskInput.value = ""; showGrid(); });
  algorithm.addEventListener("change", showOptions);

  // as `lacak maze generate`: the start and end, and the solution, only when asked for (the
  // defaults of the kind's options for a made maze, those of its --endpoints and --solution)
  const prepared = Object.fromEntries((catalogue.prepare || []).map((o) => [o.name, o.default === true]));
  const endsBox = h("input", {type: "checkbox", name: "ends",
    checked: Boolean(prepared.endpoints || prepared.solution)});
  const solutionBox = h("input", {type: "checkbox", name: "solution", checked: Boolean(prepared.solution)});
  const orderBox = h("input", {type: "checkbox", name: "search-order"});
  const strategy = strategyPicker(catalogue.strategies, {name: "solver"});
  const heuristic = heuristicPicker(catalogue.heuristics);
  const canvas = h("canvas", {class: "maze", id: "maze-canvas"});
  const stats = h("div", {class: "stats-box", id: "maze-stats"});
  const note = h("p", {class: "hint", id: "animation-note"});
  const legend = h("ul", {class: "legend", id: "legend"});
  legend.hidden = true;
  const view = h("section", {class: "view"}, canvas, note, legend, stats);
  const errors = errorDisplay(view, {hasResult: () => state.maze !== null});
  showOptions();
  const generateButton = h("button", {type: "button", class: "primary", id: "generate", text: "Generate"});
  const carvingButton = h("button", {type: "button", id: "animate-carving", text: "carving"});
  const solverButton = h("button", {type: "button", id: "animate-solver", text: "solver"});
  const generateFields = () => ({algorithm, size: [rows, cols], seed, options: generatorOptions,
    "options.grid": gridSelect, "options.mask": maskInput, "options.braid": braid,
    ...optionsOf.fields()});
  const solveFields = {strategy, ...heuristic.fields()};
  const speed = h("input", {type: "range", min: "1", max: "200", value: "40", name: "speed"});
  const position = h("span", {class: "position", id: "frame"});
  const play = h("button", {type: "button", text: "▶ play", id: "play", onclick: () => toggle()});

  const generate = async () => {
    errors.clear();
    stop();
    try {
      const grid = gridOptions();
      const body = {algorithm: algorithm.value, options: {...optionsOf.values(), ...grid}};
      // a masked maze is the mask's size; a polar one's is its rings
      if (!grid.mask) body.size = `${rows.value}x${grid.grid === "polar" ? rows.value : cols.value}`;
      if (seed.value !== "") body.seed = Number(seed.value);
      // the suggested start and end are the maze plugin's (as `lacak maze generate --endpoints`)
      const made = await api(`kinds/${catalogue.kind}/generate`,
        {...body, prepare: {endpoints: "true"}});
      state.generated = made;
      state.request = {...body, seed: made.seed, carves: carves(chosen())};
      state.maze = made.instance;
      state.view = made.geometry ? gridView(made.instance, made.geometry) : null;
      state.ends = [state.maze.start, state.maze.end];
      state.customEnds = false;
      state.solved = null;
      state.carving = null;
      state.frames = null;
      seed.placeholder = `random (last: ${made.seed})`;
      root.dataset.seed = made.seed;
    } catch (error) {
      errors.show(error, {control: generateButton, fields: generateFields()});
      return;
    }
    if (solutionBox.checked) await solve(generateButton); else redraw();
  };

  /** What a maze on a grid sent to be solved leaves out: its cells, which its grid lists
   *  (they are optional in its JSON), so that a large maze stays within the puzzle's size. */
  const unlisted = () => (state.view ? {cells: undefined} : {});

  /** Solve the maze from its start to its end; control: what asked for it (where an error
   *  that names no input of the solver shows). */
  const solve = async (control = solutionBox) => {
    if (!state.maze) return;
    errors.clear();
    const [start, end] = state.ends;
    const puzzle = JSON.stringify({...state.maze, ...unlisted(), start, end, solution: null});
    const body = {puzzle, trace: Math.min(cellCount() * 2, 20000)};
    if (strategy.value) body.strategy = strategy.value;
    const spec = heuristic.spec();
    if (spec) body.heuristic = spec;
    try {
      const answer = await api(`kinds/${catalogue.kind}/solve`, body);
      const result = answer.result;
      let path = result.maze?.path || (result.found ? result.states.map(numbers) : null);
      let expanded = answer.trace.nodes.filter((n) => n.order).sort((a, b) => a.order - b.order)
        .map((n) => numbers(n.state));
      if (state.view) {  // on a grid: cells by index (states are ids, "2,5")
        const {cellOf} = state.view;
        path = path && path.map(cellOf);
        expanded = expanded.map(cellOf).filter((cell) => cell !== undefined);
      }
      state.solved = {answer, result, path, expanded};
      root.dataset.solved = result.found ? "yes" : "no";
      redraw();
    } catch (error) {
      // the maze shown is still the current one; a solution shown before is gone
      state.solved = null;
      redraw();
      errors.show(error, {control, fields: solveFields, stale: false});
    }
  };

  // -- drawing ------------------------------------------------------------------------------
  /** The cells of the maze shown (a grid's, or the rectangle's rows times columns). */
  const cellCount = () => (state.view ? state.view.size : state.maze.height * state.maze.width);
  const geometry = () => {
    const {height, width} = state.view || state.maze;  // a grid's extent is in cell units
    const cell = Math.max(4, Math.min(32, Math.floor(Math.min(880 / width, 620 / height))));
    return {cell, margin: 6, pixelsWide: Math.ceil(width * cell) + 12, pixelsHigh: Math.ceil(height * cell) + 12};
  };

  /** The outline of each cell of the grid shown, in canvas pixels (made once a maze). */
  const outlines = () => {
    const view = state.view;
    if (view.outlines) return view.outlines;
    const {cell, margin} = geometry();
    view.outlines = view.sides.map((around) => {
      const path = new Path2D();
      let started = false;
      for (const [, line] of around) {  // each side's corners but its last (the next one's first)
        for (let j = 0; j < line.length - 2; j += 2) {
          const x = margin + line[j] * cell, y = margin + line[j + 1] * cell;
          if (started) path.lineTo(x, y); else { path.moveTo(x, y); started = true; }
        }
      }
      path.closePath();
      return path;
    });
    return view.outlines;
  };

  /** A maze on a grid, from the server's shapes: the frame's walls (every side without a
   *  passage across it, a passage opened when its link is among the frame's first
   *  `opened`), cells not reached yet dark, weights shaded, the solver's cells tinted, the
   *  path through the cells' centres (broken where it crosses a wrapped grid's seam). */
  const redrawGrid = (ctx, frame) => {
    const view = state.view;
    const {cell, margin} = geometry();
    const paths = outlines();
    const at = (x, y) => [margin + x * cell, margin + y * cell];
    const centre = (c) => at(...view.centre(c));
    const opened = frame && frame.opened !== undefined ? frame.opened : view.links.length;
    const hidden = frame && frame.hidden ? frame.hidden : null;
    if (view.weights && !(frame && frame.explored.length)) {
      for (let c = 0; c < view.size; c++) {
        ctx.fillStyle = weightShade(view.weights[c], view.lightest, view.heaviest);
        ctx.fill(paths[c]);
      }
    }
    if (hidden) {
      ctx.fillStyle = "#3b3f46";
      for (let c = 0; c < view.size; c++) if (hidden(c)) ctx.fill(paths[c]);
    }
    const explored = frame ? frame.explored
      : (state.solved && solutionBox.checked && orderBox.checked ? state.solved.expanded : []);
    explored.forEach((c, i) => {
      ctx.fillStyle = shade(explored.length > 1 ? i / (explored.length - 1) : 0);
      ctx.fill(paths[c]);
    });
    if (frame && frame.head) {  // the link just made: its first cell, and the one it joins
      ctx.fillStyle = WALK.head;
      ctx.fill(paths[frame.head[0]]);
      ctx.fillStyle = WALK.next;
      ctx.fill(paths[frame.head[1]]);
    }
    ctx.strokeStyle = "#1d2733";
    ctx.lineWidth = Math.max(1, Math.round(cell / 8));
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.beginPath();
    const {size, order, crossed} = view;
    for (let c = 0; c < size; c++) {
      for (const [neighbour, line] of view.sides[c]) {
        if (neighbour >= 0) {
          const made = order.get(c * size + neighbour);
          if ((made !== undefined && made < opened) || crossed.has(c * size + neighbour)) continue;
        }
        ctx.moveTo(...at(line[0], line[1]));
        for (let j = 2; j < line.length; j += 2) ctx.lineTo(...at(line[j], line[j + 1]));
      }
    }
    for (const line of view.bridges) {  // where a passage crosses over a tunnel
      ctx.moveTo(...at(line[0], line[1]));
      for (let j = 2; j < line.length; j += 2) ctx.lineTo(...at(line[j], line[j + 1]));
    }
    ctx.stroke();
    const path = frame ? frame.path : (state.solved && solutionBox.checked ? state.solved.path : null);
    if (path && path.length) {
      const far = 1.5 * view.step;
      const trace = () => {
        ctx.beginPath();
        path.forEach((c, i) => {
          const [x, y] = centre(c);
          const before = i ? view.centre(path[i - 1]) : null;
          const seam = before && Math.hypot(before[0] - view.centre(c)[0], before[1] - view.centre(c)[1]) > far
            && !view.tunnelled.has(path[i - 1] * size + c);
          if (i && !seam) ctx.lineTo(x, y); else ctx.moveTo(x, y);
        });
        ctx.stroke();
      };
      const width = Math.max(2, cell / 3);
      if (explored.length) {
        ctx.strokeStyle = "#fff";
        ctx.lineWidth = width + Math.max(2, cell / 8);
        trace();
      }
      ctx.strokeStyle = "#d2283c";
      ctx.lineWidth = width;
      trace();
    }
    if (endsBox.checked && state.ends && !(frame && frame.hidden)) {
      state.ends.forEach((id, i) => {
        const c = view.cellOf(id);
        if (c === undefined) return;
        const [x, y] = centre(c);
        ctx.fillStyle = i ? "#c0392b" : "#1e8449";
        ctx.beginPath();
        ctx.arc(x, y, Math.max(2.5, cell * 0.3), 0, 2 * Math.PI);
        ctx.fill();
      });
    }
  };

  const redraw = () => {
    if (!state.maze) return;
    const {maze} = state;
    if (state.view) {
      const {pixelsWide, pixelsHigh} = geometry();
      if (canvas.width !== pixelsWide || canvas.height !== pixelsHigh) {
        canvas.width = pixelsWide; canvas.height = pixelsHigh;
      }
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, pixelsWide, pixelsHigh);
      redrawGrid(ctx, state.frames ? state.frames.frame(state.frame) : null);
      showStats();
      position.textContent = state.frames ? `${state.frame} / ${state.frames.length - 1}` : "";
      canvas.dataset.frame = state.frames ? String(state.frame) : "";
      canvas.dataset.mode = state.frames ? state.mode : "";
      canvas.dataset.grid = state.maze.grid.type;
      return;
    }
    canvas.dataset.grid = "rect";
    const {cell, margin, pixelsWide, pixelsHigh} = geometry();
    canvas.width = pixelsWide; canvas.height = pixelsHigh;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, pixelsWide, pixelsHigh);
    const at = (r, c) => [margin + c * cell, margin + r * cell];
    const frame = state.frames ? state.frames.frame(state.frame) : null;
    const mask = frame && frame.cells ? (r, c) => frame.cells[r * maze.width + c] : (r, c) => maze.cells[r][c];
    if (Array.isArray(maze.weights) && Array.isArray(maze.weights[0]) && !(frame && frame.explored.length)) {
      // a weighted rectangle: its weights as rows, each cell shaded (darker costs more)
      const all = maze.weights.flat();
      const lightest = Math.min(...all), heaviest = Math.max(...all);
      maze.weights.forEach((row, r) => row.forEach((w, c) => {
        ctx.fillStyle = weightShade(w, lightest, heaviest);
        ctx.fillRect(...at(r, c), cell, cell);
      }));
    }
    // cells: hidden (not carved yet), explored (coloured by order), on the path
    if (frame && frame.hidden) {
      ctx.fillStyle = "#3b3f46";
      for (let r = 0; r < maze.height; r++) {
        for (let c = 0; c < maze.width; c++) {
          if (frame.hidden(r * maze.width + c)) ctx.fillRect(...at(r, c), cell, cell);
        }
      }
    }
    // the solver's search order tints the cells only when asked for (or animated): the
    // path is what a solved maze shows
    const explored = frame ? frame.explored
      : (state.solved && solutionBox.checked && orderBox.checked ? state.solved.expanded : []);
    explored.forEach(([r, c], i) => {
      ctx.fillStyle = shade(explored.length > 1 ? i / (explored.length - 1) : 0);
      ctx.fillRect(...at(r, c), cell, cell);
    });
    for (const [r, c, mark] of (frame && frame.joined) || []) {  // cells marked steps joined
      ctx.fillStyle = (MARKS[mark] || OTHER_MARK).joined;
      ctx.fillRect(...at(r, c), cell, cell);
    }
    if (frame && frame.head) {  // the step just taken: its cell, and the neighbour it joins
      const [r, c, side] = frame.head;
      const [, dr, dc] = SIDES[side];
      const colours = frame.mark ? (MARKS[frame.mark] || OTHER_MARK) : WALK;
      ctx.fillStyle = colours.head;
      ctx.fillRect(...at(r, c), cell, cell);
      ctx.fillStyle = colours.next;
      ctx.fillRect(...at(r + dr, c + dc), cell, cell);
    }
    const path = frame ? frame.path : (state.solved && solutionBox.checked ? state.solved.path : null);
    // walls
    ctx.strokeStyle = "#1d2733";
    ctx.lineWidth = Math.max(1, Math.round(cell / 8));
    ctx.lineCap = "square";
    ctx.beginPath();
    for (let r = 0; r < maze.height; r++) {
      for (let c = 0; c < maze.width; c++) {
        const open = mask(r, c);
        const [x, y] = at(r, c);
        if (!(open & N)) { ctx.moveTo(x, y); ctx.lineTo(x + cell, y); }
        if (!(open & W)) { ctx.moveTo(x, y); ctx.lineTo(x, y + cell); }
        if (r === maze.height - 1 && !(open & S)) { ctx.moveTo(x, y + cell); ctx.lineTo(x + cell, y + cell); }
        if (c === maze.width - 1 && !(open & E)) { ctx.moveTo(x + cell, y); ctx.lineTo(x + cell, y + cell); }
      }
    }
    ctx.stroke();
    if (path && path.length) {
      const trace = () => {
        ctx.beginPath();
        path.forEach(([r, c], i) => {
          const [x, y] = at(r, c);
          if (i) ctx.lineTo(x + cell / 2, y + cell / 2); else ctx.moveTo(x + cell / 2, y + cell / 2);
        });
        ctx.stroke();
      };
      const width = Math.max(2, cell / 3);
      ctx.lineJoin = "round";
      ctx.lineCap = "round";
      if (explored.length) {  // a white edge keeps the path apart from the tinted cells
        ctx.strokeStyle = "#fff";
        ctx.lineWidth = width + Math.max(2, cell / 8);
        trace();
      }
      ctx.strokeStyle = "#d2283c";
      ctx.lineWidth = width;
      trace();
    }
    if (endsBox.checked && state.ends && !(frame && (frame.hidden || frame.cells))) {
      state.ends.forEach(([r, c], i) => {
        const [x, y] = at(r, c);
        ctx.fillStyle = i ? "#c0392b" : "#1e8449";
        ctx.beginPath();
        ctx.arc(x + cell / 2, y + cell / 2, Math.max(2.5, cell * 0.32), 0, 2 * Math.PI);
        ctx.fill();
      });
    }
    showStats();
    position.textContent = state.frames ? `${state.frame} / ${state.frames.length - 1}` : "";
    canvas.dataset.frame = state.frames ? String(state.frame) : "";
    canvas.dataset.mode = state.frames ? state.mode : "";
  };

  /** The maze's size as the page says it: rows × columns, a grid's name and cells. */
  const sizeText = () => {
    if (!state.view) return `${state.maze.height} × ${state.maze.width}`;
    const grid = state.maze.grid;
    const shape = grid.rings !== undefined ? `${grid.rings} rings` : `${grid.rows} × ${grid.cols}`;
    return `${shape} ${grid.type}${grid.mask ? " (masked)" : ""}, ${count(state.view.size)} cells`;
  };
  // the options the maze was made with besides the defaults, as -O takes them
  // (a mask as its size: its rows are in the maze's JSON)
  const optionsText = (before) => {
    const options = {...state.maze.options};
    if (typeof options.mask === "string") {
      const rows = options.mask.split("/");
      options.mask = `${rows.length}x${rows[0].length}`;
    }
    return optionPairs(options).map((pair) => before + pair).join("");
  };
  const showStats = () => {
    const s = state.generated.stats || {};
    const items = [
      ["size", sizeText()],
      ["generator", `${state.maze.algorithm || state.request.algorithm} (seed ${state.maze.seed ?? state.request.seed}${optionsText(", ")})`],
      ["dead ends", s.dead_ends === undefined ? "–" : `${count(s.dead_ends)} (${(100 * s.dead_end_share).toFixed(1)} %)`],
      ["corridors", s.corridors === undefined ? "–" : `${count(s.corridors)} (straight ${(100 * s.straightness).toFixed(0)} %, mean run ${s.corridor_length.toFixed(2)})`],
      ["junctions", s.junctions === undefined ? "–" : count(s.junctions)],
    ];
    if (s.loops) items.push(["loops", count(s.loops)]);
    if (s.crossings) items.push(["crossings", count(s.crossings)]);
    if (endsBox.checked && state.ends) {
      items.push(["start → end", `[${state.ends[0]}] → [${state.ends[1]}]` +
        (state.customEnds ? " (chosen)" : " (suggested)")]);
    }
    if (state.solved) {
      const r = state.solved.result;
      items.push(["solver", state.solved.answer.choice.label]);
      items.push(["solution length", r.found ? `${count(r.length)} steps` : `not found (${r.stopped})`]);
      items.push(["expanded", `${count(r.stats.expanded)} cells (${(100 * r.stats.expanded / cellCount()).toFixed(1)} %)`]);
    }
    stats.replaceChildren(h("dl", {}, items.flatMap(([k, v]) => [h("dt", {text: k}), h("dd", {text: v, dataset: {stat: k}})])));
  };

  // -- animations ---------------------------------------------------------------------------
  const reveal = () => {  // for a generator that does not report its carving order
    const {height, width} = state.maze;
    const start = endsBox.checked && state.ends ? state.ends[0] : [0, 0];
    const order = flood(state.maze, start);
    const rank = new Int32Array(height * width).fill(order.length);
    order.forEach(([r, c], i) => { rank[r * width + c] = i; });
    return {length: order.length + 1, own: false,
      frame: (k) => ({hidden: (i) => rank[i] >= k, explored: [], path: null})};
  };
  /** The generator's own carving order: the same maze made again (same seed and options)
   *  with the option 'carving', which adds the steps and changes nothing else. */
  const fetchCarving = async () => {
    if (state.carving) return state.carving;
    const {carves: _, ...body} = state.request;
    const again = await api(`kinds/${catalogue.kind}/generate`,
      {...body, options: {...body.options, carving: "true"}});
    if (JSON.stringify(again.instance.cells) !== JSON.stringify(state.maze.cells)) {
      throw new Error("the generator made another maze when asked for its carving order");
    }
    state.carving = again.instance.carving;
    return state.carving;
  };
  const carving = async () => {
    if (state.view) return gridCarvingFrames(state.view);  // its links are in the order made
    if (!state.request.carves) return reveal();
    return carvingFrames(state.maze, await fetchCarving());
  };
  const exploring = () => {
    const {expanded, path} = state.solved;
    const n = expanded.length;
    return {length: n + (path ? path.length : 0) + 1,
      frame: (k) => (k <= n ? {explored: expanded.slice(0, k), path: null}
        : {explored: expanded, path: path.slice(0, k - n)})};
  };
  const animate = async (mode) => {
    if (!state.maze) return;
    stop();
    if (mode === "solver") endsBox.checked = true;  // solving is from the start to the end
    if (mode === "solver" && !state.solved) await solve(solverButton);
    if (mode === "solver" && !state.solved) return;
    let frames;
    errors.clear();
    try {
      frames = mode === "carving" ? await carving() : exploring();
    } catch (error) {
      errors.show(error, {control: mode === "carving" ? carvingButton : solverButton, stale: false});
      return;
    }
    state.mode = mode === "carving" ? (frames.own ? "carving" : "reveal") : mode;
    state.frames = frames;
    state.frame = 0;
    const algorithmName = state.maze.algorithm || state.request.algorithm;
    const steps = frames.length - 1;
    note.textContent = mode !== "carving"
      ? `The solver's expansion order (${state.solved.answer.choice.label}): cells coloured from yellow ` +
        "(first expanded) to blue (last), then the path."
      : !frames.own
        ? `${algorithmName} does not report the order it carves in (it takes no 'carving' option), ` +
          "so the finished maze is revealed breadth-first from the start instead: not the generator's own order."
        : state.view
          ? `${algorithmName}'s own carving order on the ${state.maze.grid.type} grid, ${count(steps)} steps: ` +
            "each step opens the passage it made next (its links, in order; orange); dark cells are not carved yet."
        : state.carving.adds === "walls"
          ? `${algorithmName}'s own order, ${count(steps)} steps: it adds walls, from one open room; ` +
            "each step puts up the wall it added next (orange)."
          : `${algorithmName}'s own carving order, ${count(steps)} steps: each step opens the passage it ` +
            "opened next (orange); dark cells are not carved yet." +
            (Object.keys(state.carving.marks || {}).length ? " Steps of another kind have their own colour (below)." : "");
    showLegend(mode === "carving" && frames.own && !state.view ? Object.keys(state.carving.marks || {}) : []);
    redraw();
    toggle(true);
  };
  const stepBy = (delta) => {
    if (!state.frames) return;
    state.frame = Math.max(0, Math.min(state.frames.length - 1, state.frame + delta));
    redraw();
  };
  function stop() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
    play.textContent = "▶ play";
  }
  function toggle(on) {
    if (!state.frames) return;
    if (state.timer && on !== true) { stop(); return; }
    if (state.frame >= state.frames.length - 1) state.frame = 0;
    play.textContent = "❚❚ pause";
    state.timer = setInterval(() => {
      if (!state.frames) { stop(); return; }  // the animation was left (a new solve, a new maze)
      const per = Math.max(1, Math.round(Number(speed.value) * state.frames.length / 4000));
      stepBy(per);
      if (state.frame >= state.frames.length - 1) stop();
    }, 30);
  }
  const leaveAnimation = () => { stop(); state.frames = null; note.textContent = ""; showLegend([]); redraw(); };
  /** The colours of a carving's kinds of steps, when it marks some (hunt-and-kill's hunts). */
  function showLegend(marks) {
    const item = (colour, text) => {
      const swatch = h("span", {class: "swatch"});
      swatch.style.background = colour;
      return h("li", {}, swatch, text);
    };
    legend.replaceChildren(...(marks.length ? [
      item(WALK.head, marks.includes("hunt") ? "walk step: to a random unvisited neighbour" : "step"),
      ...marks.flatMap((mark) => {
        const colours = MARKS[mark] || OTHER_MARK;
        return [item(colours.head, colours.label || `${mark} step`),
          item(colours.joined, `cells ${mark} steps joined`)];
      }),
    ] : []));
    legend.hidden = !marks.length;
    legend.dataset.marks = marks.join(" ");
  }

  // -- downloads: lacak's own files, from the API ----------------------------------------
  // With the suggested ends (or none), the maze is made again from its seed with the
  // preparations the page shows: the files `lacak maze generate [--endpoints|--solution]
  // -f svg|png|json` writes. With ends chosen by clicking, the picture is the maze kind's
  // picture of the solve from them (`lacak maze solve --start --end`), path included.
  const file = async (fmt) => {
    if (state.customEnds && endsBox.checked) {
      if (fmt === "json") {
        const shown = state.solved && solutionBox.checked && state.solved.path;
        const solution = shown ? (state.view ? shown.map(state.view.id) : shown) : null;
        return JSON.stringify({...state.maze, carving: undefined, start: state.ends[0],
          end: state.ends[1], solution}, null, 1);
      }
      const [start, end] = state.ends;
      const answer = await api(`kinds/${catalogue.kind}/solve`,
        {puzzle: JSON.stringify({...state.maze, ...unlisted(), carving: undefined, start, end, solution: null}),
          picture: fmt});
      return answer.picture;
    }
    const prepare = !endsBox.checked ? {} : solutionBox.checked ? {solution: "true"} : {endpoints: "true"};
    const {carves: _, ...body} = state.request;
    const made = await api(`kinds/${catalogue.kind}/generate`,
      {...body, prepare, ...(fmt === "json" ? {} : {picture: fmt})});
    return fmt === "json" ? made.text : made.picture;
  };
  const save = async (fmt, button) => {
    if (!state.maze) return;
    errors.clear();
    try {
      const got = await file(fmt);
      const types = {svg: "image/svg+xml", png: "image/png", json: "application/json"};
      let data = typeof got === "string" ? got : got.data;
      if (got.base64) data = Uint8Array.from(atob(got.data), (ch) => ch.charCodeAt(0));
      download(`${name()}.${fmt}`, data, types[fmt]);
    } catch (error) {
      errors.show(error, {control: button, stale: false});  // the maze shown is still the one
    }
  };
  const name = () => {
    const grid = state.maze.grid;
    const size = !grid ? `${state.maze.height}x${state.maze.width}`
      : grid.rings !== undefined ? `${grid.rings}x${grid.rings}` : `${grid.rows}x${grid.cols}`;
    return `maze-${state.maze.algorithm}-${size}-${state.maze.seed}` + fileSafe(optionsText("-"));
  };

  // the solution implies the start and end (as --solution implies --endpoints), the search
  // order the solution
  const showSolution = async (control) => {
    stop(); state.frames = null; showLegend([]); note.textContent = "";
    if (solutionBox.checked && !state.solved) await solve(control); else redraw();
  };
  solutionBox.addEventListener("change", () => {
    if (solutionBox.checked) endsBox.checked = true;
    else orderBox.checked = false;
    return showSolution(solutionBox);
  });
  orderBox.addEventListener("change", () => {
    if (orderBox.checked) endsBox.checked = solutionBox.checked = true;
    return showSolution(orderBox);
  });
  endsBox.addEventListener("change", () => {
    if (!endsBox.checked) solutionBox.checked = orderBox.checked = false;
    redraw();
  });
  const resolve = (control) => async () => {
    if (state.solved) { stop(); state.solved = null; state.frames = null; await solve(control); }
  };
  strategy.addEventListener("change", resolve(strategy));
  heuristic.picker.addEventListener("change", resolve(heuristic.picker));
  canvas.addEventListener("click", (event) => {  // click: set the start; shift-click: the end
    if (!state.maze || !endsBox.checked) return;
    const {cell, margin} = geometry();
    const rect = canvas.getBoundingClientRect();
    const x = (event.clientX - rect.left) * canvas.width / rect.width;
    const y = (event.clientY - rect.top) * canvas.height / rect.height;
    let chosenCell;
    if (state.view) {  // the cell whose outline holds the point
      const paths = outlines();
      const ctx = canvas.getContext("2d");
      const found = paths.findIndex((path) => ctx.isPointInPath(path, x, y));
      if (found < 0) return;
      chosenCell = state.view.id(found);
    } else {
      const c = Math.floor((x - margin) / cell), r = Math.floor((y - margin) / cell);
      if (r < 0 || c < 0 || r >= state.maze.height || c >= state.maze.width) return;
      chosenCell = [r, c];
    }
    state.ends = event.shiftKey ? [state.ends[0], chosenCell] : [chosenCell, state.ends[1]];
    state.customEnds = true;
    state.solved = null; state.frames = null;
    if (solutionBox.checked) solve(canvas); else redraw();
  });
  generateButton.addEventListener("click", generate);
  carvingButton.addEventListener("click", () => animate("carving"));
  solverButton.addEventListener("click", () => animate("solver"));

  root.replaceChildren(
    h("aside", {class: "controls"},
      h("h2", {text: "Maze"}),
      field("generator", algorithm), description, generatorOptions,
      gridControls,
      h("div", {class: "row"}, rowsField, colsField),
      field("seed", seed),
      generateButton,
      h("h3", {text: "Show"}),
      h("label", {class: "check"}, endsBox, " suggested start and end"),
      h("label", {class: "check"}, solutionBox, " solution"),
      h("label", {class: "check", title: "Tint the cells the solver expanded, from yellow (first) to blue (last)"},
        orderBox, " show search order"),
      h("p", {class: "hint", text: "Click a cell to move the start there, shift-click for the end."}),
      h("h3", {text: "Solver"}),
      field("strategy", strategy), heuristic.element,
      h("h3", {text: "Animate"}),
      h("div", {class: "row"},
        carvingButton, solverButton,
        h("button", {type: "button", text: "✕", title: "back to the maze", onclick: leaveAnimation})),
      h("div", {class: "row player"},
        h("button", {type: "button", text: "⇤", id: "first", title: "first step", onclick: () => { stop(); state.frame = 0; redraw(); }}),
        h("button", {type: "button", text: "◀", id: "step-back", title: "one step back", onclick: () => { stop(); stepBy(-1); }}),
        play,
        h("button", {type: "button", text: "▶|", id: "step", title: "one step", onclick: () => { stop(); stepBy(1); }}),
        h("button", {type: "button", text: "⇥", title: "last step", onclick: () => { stop(); if (state.frames) { state.frame = state.frames.length - 1; redraw(); } }})),
      field("speed", speed), position,
      h("h3", {text: "Download"}),
      h("div", {class: "row"},
        ...["svg", "png", "json"].map((fmt) => h("button", {type: "button", text: fmt.toUpperCase(),
          id: `download-${fmt}`, onclick: (event) => save(fmt, event.currentTarget)})))),
    view);
  await generate();
}
