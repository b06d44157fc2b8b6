// The sliding-puzzle page: enter or scramble a board (2x2 to 5x5), pick a strategy and a
// heuristic (with its weights) and limits; step through the solution with the board
// animated; the node counts; for small searches the search tree drawn as boards numbered
// in expansion order with g and h, as in the course notes; two strategies side by side.
// Boards are read from the result's states, in the kind's notation (123450786, or tiles
// separated by spaces past 9 tiles). The sliding plugin's page of lacak serve (the sliding
// kind's lacak.Page, served under /pages/sliding/), built on the pages' shared helpers
// (/static/ui.js; docs/web.md).

import {api, count, drawTree, errorDisplay, field, h, heuristicPicker, limitInputs, madeNote, numbers,
  optionInputs, select, statsTable, stepPlayer, strategyPicker, treeScroll} from "/static/ui.js";

/** A state's tiles: "123450786" → [1, 2, ..., 6]; "1 2 3 / 4 5 0" → [1, 2, 3, 4, 5, 0]. */
export function tilesOf(text) {
  const t = String(text).trim().replace(/^[(\[]|[)\]]$/g, "");
  return /[\s,/]/.test(t) ? numbers(t) : [...t].map(Number);
}

/** [rows, cols] of a board's text: its rows when written in rows, else a square. */
export function shapeOf(text) {
  const rows = String(text).trim().split(/\s*(?:\/|\n)\s*/).filter(Boolean);
  if (rows.length > 1) return [rows.length, tilesOf(rows[0]).length];
  const side = Math.round(Math.sqrt(tilesOf(text).length));
  return [side, side];
}

/** The board in rows: "1 2 3 / 4 5 0 / 7 8 6". */
export const rowsText = (tiles, cols) => Array.from({length: tiles.length / cols},
  (_, r) => tiles.slice(r * cols, r * cols + cols).join(" ")).join(" / ");

/** The usual goal: tiles in order, the blank last. */
const standardGoal = (rows, cols) => [...Array.from({length: rows * cols - 1}, (_, i) => i + 1), 0];

const TREE_NODES = 500;
const STEPS = 200;

export default async function slidingPage(root, catalogue) {
  const state = {runs: [], step: 0, timer: null, shape: [3, 3]};
  const board = h("textarea", {name: "board", rows: "3", spellcheck: false});
  board.value = "123450786";
  const goal = h("input", {type: "text", name: "goal", placeholder: "1 2 … 0 (the usual)"});
  goal.value = "103425786";
  const sizes = [2, 3, 4, 5];
  const rowsIn = select(sizes.map(String), "3", {name: "rows"});
  const colsIn = select(sizes.map(String), "3", {name: "cols"});
  const scramblers = catalogue.generators;
  const scrambler = select(scramblers.map((g) => [g.name, g.name]), scramblers.some((g) => g.name === "walk") ? "walk" : scramblers[0]?.name, {name: "scrambler"});
  const scramblerOptions = h("div");
  let optionsOf = null;
  const showScrambler = () => {
    const chosen = scramblers.find((g) => g.name === scrambler.value);
    optionsOf = optionInputs(chosen.options.filter((o) => o.name !== "goal"));
    scramblerOptions.replaceChildren(h("p", {class: "hint", text: chosen.description}), optionsOf.element);
  };
  scrambler.addEventListener("change", showScrambler);
  showScrambler();
  const seed = h("input", {type: "number", min: "0", step: "1", placeholder: "random", name: "seed"});
  const strategyA = strategyPicker(catalogue.strategies, {name: "strategy"});
  const heuristicA = heuristicPicker(catalogue.heuristics, {name: "heuristic"});
  const strategyB = strategyPicker(catalogue.strategies, {name: "strategy-b", value: "bfs"});
  const heuristicB = heuristicPicker(catalogue.heuristics, {name: "heuristic-b"});
  const compare = h("input", {type: "checkbox", name: "compare"});
  const limits = limitInputs({depth: "", nodes: "200000", seconds: "10"});
  const tree = h("input", {type: "checkbox", name: "tree", checked: true});
  const stepping = h("input", {type: "checkbox", name: "steps"});
  const results = h("div", {id: "results"});
  const player = h("div", {class: "player-box", id: "player"});
  const trees = h("div", {class: "trees", id: "trees"});
  const view = h("section", {class: "view"}, results, player, trees);
  const errors = errorDisplay(view, {hasResult: () => state.runs.length > 0});
  const solveButton = h("button", {type: "button", class: "primary", id: "solve", text: "Solve"});
  const scrambleButton = h("button", {type: "button", id: "scramble", text: "Scramble"});
  const madeLine = madeNote("made");

  const scramble = async () => {
    errors.clear();
    const body = {algorithm: scrambler.value, size: `${rowsIn.value}x${colsIn.value}`, options: optionsOf.values()};
    if (seed.value !== "") body.seed = Number(seed.value);
    const rows = Number(rowsIn.value), cols = Number(colsIn.value);
    if (goal.value.trim()) body.options.goal = goal.value.trim();
    try {
      const made = await api(`kinds/${catalogue.kind}/generate`, body);
      board.value = rowsText(tilesOf(made.state), cols);
      if (!goal.value.trim()) goal.placeholder = rowsText(standardGoal(rows, cols), cols);
      seed.placeholder = `random (last: ${made.seed})`;
      madeLine.show(made);
    } catch (error) {
      madeLine.clear();
      errors.show(error, {control: scrambleButton, fields: {size: [rowsIn, colsIn], seed,
        algorithm: scrambler, options: scramblerOptions, ...optionsOf.fields(), "options.goal": goal}});
    }
  };

  const run = async (strategy, heuristic) => {
    const body = {puzzle: board.value, limits: limits.values(),
      trace: tree.checked || stepping.checked ? TREE_NODES : 0};
    if (stepping.checked) body.steps = STEPS;
    if (goal.value.trim()) body.options = {goal: goal.value.trim()};
    if (strategy.value) body.strategy = strategy.value;
    const spec = heuristic.spec();
    if (spec) body.heuristic = spec;
    return api(`kinds/${catalogue.kind}/solve`, body);
  };

  // the inputs each field of a solve request comes from, for the first strategy and the other
  const common = {puzzle: board, options: goal, "options.goal": goal, ...limits.fields(), trace: tree,
    steps: stepping};
  const fieldsA = {...common, strategy: strategyA, ...heuristicA.fields()};
  const fieldsB = {...common, strategy: strategyB, ...heuristicB.fields()};

  const solve = async () => {
    errors.clear();
    stop();
    let fields = fieldsA;
    try {
      const shape = shapeOf(board.value);
      const runs = [await run(strategyA, heuristicA)];
      fields = fieldsB;
      if (compare.checked) runs.push(await run(strategyB, heuristicB));
      state.shape = shape;
      state.runs = runs;
      state.step = 0;
      root.dataset.solved = runs[0].result.found ? "yes" : "no";
      show();
    } catch (error) {
      errors.show(error, {control: solveButton, fields});
    }
  };

  const show = () => {
    const label = (a) => a.choice ? a.choice.label : a.result.strategy;
    const notes = state.runs.flatMap((a) => [...(a.choice?.notes || []), ...(a.advice ? [a.advice] : [])]);
    results.replaceChildren(
      statsTable(state.runs.map((a) => [label(a), a.result])),
      notes.length ? h("ul", {class: "notes"}, notes.map((n) => h("li", {text: n}))) : "");
    drawPlayer();
    trees.replaceChildren(...state.runs.map((a) => treeOf(a, label(a))));
  };

  // -- stepping through the solution ----------------------------------------------------------
  const drawPlayer = () => {
    const answer = state.runs[0];
    const result = answer.result;
    const [rows, cols] = state.shape;
    const states = result.states.map(tilesOf);
    const size = Math.min(72, Math.floor(300 / Math.max(rows, cols)));
    const frame = h("div", {class: "slide-board", id: "slide-board"});
    frame.style.width = `${cols * size}px`;
    frame.style.height = `${rows * size}px`;
    const pieces = new Map();
    for (const tile of states[0]) {
      if (tile === 0) continue;
      const piece = h("div", {class: "piece", text: tile, dataset: {tile}});
      piece.style.width = piece.style.height = `${size - 4}px`;
      piece.style.fontSize = `${Math.round(size * 0.4)}px`;
      pieces.set(tile, piece);
      frame.append(piece);
    }
    const moves = h("ol", {class: "moves", start: "1"}, result.actions.map((a, i) =>
      h("li", {text: a, dataset: {step: i + 1}, onclick: () => { stop(); go(i + 1); }})));
    const where = h("span", {class: "position", id: "step"});
    const go = (step) => {
      state.step = Math.max(0, Math.min(states.length - 1, step));
      states[state.step].forEach((tile, i) => {
        const piece = pieces.get(tile);
        if (piece) piece.style.transform = `translate(${(i % cols) * size + 2}px, ${Math.floor(i / cols) * size + 2}px)`;
      });
      where.textContent = `move ${state.step} of ${states.length - 1}` +
        (state.step ? ` (${result.actions[state.step - 1]})` : "");
      for (const li of moves.children) li.classList.toggle("current", Number(li.dataset.step) === state.step);
      frame.dataset.state = result.states[state.step];
    };
    state.go = go;
    const buttons = h("div", {class: "row player"},
      h("button", {type: "button", text: "⇤", title: "start", onclick: () => { stop(); go(0); }}),
      h("button", {type: "button", text: "◀", id: "back", title: "one move back", onclick: () => { stop(); go(state.step - 1); }}),
      h("button", {type: "button", text: "▶ play", id: "play", onclick: (e) => togglePlay(e.target)}),
      h("button", {type: "button", text: "▶|", id: "next", title: "one move", onclick: () => { stop(); go(state.step + 1); }}),
      h("button", {type: "button", text: "⇥", title: "goal", onclick: () => { stop(); go(states.length - 1); }}));
    player.replaceChildren(
      h("h3", {text: result.found ? `Solution: ${count(result.length)} moves (the blank moves U, D, L, R)` : "No solution found"}),
      frame, buttons, where, result.found ? moves : "");
    go(0);
  };
  function stop() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
    const button = player.querySelector("#play");
    if (button) button.textContent = "▶ play";
  }
  function togglePlay(button) {
    if (state.timer) { stop(); return; }
    const last = state.runs[0].result.states.length - 1;
    if (state.step >= last) state.go(0);
    button.textContent = "❚❚ pause";
    state.timer = setInterval(() => {
      state.go(state.step + 1);
      if (state.step >= last) stop();
    }, 450);
  }

  // -- the search tree ------------------------------------------------------------------------
  const paintBoard = (group, node, width, height) => {
    const [rows, cols] = state.shape;
    const tiles = tilesOf(node.state);
    const cell = Math.min((width - 8) / cols, (height - 6) / rows);
    const left = (width - cell * cols) / 2, top = (height - cell * rows) / 2 - 2;
    tiles.forEach((tile, i) => {
      const x = left + (i % cols) * cell, y = top + Math.floor(i / cols) * cell;
      group.append(h("svg:rect", {x, y, width: cell - 1, height: cell - 1, class: tile ? "cell" : "cell blank"}));
      if (tile) group.append(h("svg:text", {x: x + cell / 2, y: y + cell / 2 + 4, class: "tile", "text-anchor": "middle", text: tile}));
    });
  };
  const treeOf = (answer, label) => {
    const trace = answer.trace;
    if (!trace) return "";
    if (answer.steps) {
      const [rows, cols] = state.shape;
      const side = Math.max(rows, cols);
      const played = stepPlayer(answer, {paint: paintBoard, width: 16 * side + 30,
        height: 16 * side + 6, maxNodes: TREE_NODES});
      played.querySelector("figcaption").textContent = `${label}, step by step: each board taken ` +
        "(P), its children, and the lists (best-first: antrian1, to examine; antrian2, examined).";
      return played;
    }
    const expanded = answer.result.stats.expanded;
    if (trace.truncated || trace.nodes.length > TREE_NODES) {
      return h("p", {class: "hint", text: `${label}: the search tree has more than ${TREE_NODES} nodes ` +
        `(${count(expanded)} expanded), too many to draw; a depth or node limit makes it smaller.`});
    }
    const [rows, cols] = state.shape;
    const side = Math.max(rows, cols);
    return h("figure", {class: "tree-figure"},
      h("figcaption", {text: `Search tree of ${label}: ${count(trace.nodes.length)} nodes, ` +
        `numbered in the order they were expanded; the path to the goal is thick, nodes never expanded are dashed.`}),
      treeScroll(drawTree(trace, {paint: paintBoard, width: 16 * side + 30, height: 16 * side + 6})));
  };

  const scrambleBox = h("div", {},
    h("div", {class: "row"}, field("rows", rowsIn), field("columns", colsIn)),
    field("scrambler", scrambler), scramblerOptions, field("seed", seed),
    scrambleButton, madeLine.element);
  const compareBox = h("div", {class: "compare"}, field("strategy", strategyB), heuristicB.element);
  compareBox.hidden = true;
  compare.addEventListener("change", () => { compareBox.hidden = !compare.checked; });
  root.replaceChildren(
    h("aside", {class: "controls"},
      h("h2", {text: "Sliding puzzle"}),
      field("board", board, "Tiles row by row, 0 for the blank: 123450786, or rows: 1 2 3 / 4 5 0 / 7 8 6"),
      field("goal", goal, "Empty for the usual goal (tiles in order, the blank last)"),
      h("details", {}, h("summary", {text: "Scramble a board"}), scrambleBox),
      h("h3", {text: "Search"}),
      field("strategy", strategyA), heuristicA.element, limits.element,
      h("label", {class: "check"}, tree, " draw the search tree (small searches)"),
      h("label", {class: "check"}, stepping, " step by step (the open and closed lists)"),
      h("label", {class: "check"}, compare, " compare with another strategy"), compareBox,
      solveButton),
    view);
  solveButton.addEventListener("click", solve);
  scrambleButton.addEventListener("click", scramble);
  limits.element.querySelector("[name=max_depth]").value = "2";
  strategyA.value = "bfs";
  await solve();
}
