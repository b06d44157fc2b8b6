// The water-jugs page of lacak serve, shipped by the example plugin (lacak_jugs): the jugs
// drawn as bars filled to their contents, and a solution stepped through move by move.
// A third-party kind's page like any built-in one: declared in the kind's PuzzleType as
// lacak.Page(package="lacak_jugs", script="jugs.js", styles=("jugs.css",)), served from
// lacak_jugs/page/, and built on the pages' shared helpers (/static/ui.js). Everything it
// shows comes from the API: the catalogue (the kind's options, strategies, heuristics) and
// the result's JSON (its states "0,5", its actions, and the kind's extras under "jugs").

import {api, count, errorDisplay, field, h, heuristicPicker, limitInputs, optionInputs,
  statsTable, strategyPicker} from "/static/ui.js";

/** Jugs are named by letters, as the plugin names them in moves (pour(B,A)). */
const NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The tallest jug's height, in pixels; the others are drawn to scale. */
const TALLEST = 180;

/** A state's contents: "3,4" → [3, 4]. */
const contentsOf = (state) => String(state).split(",").map(Number);

export default async function jugsPage(root, catalogue) {
  const puzzle = h("input", {type: "text", name: "puzzle", spellcheck: false});
  puzzle.value = catalogue.example || "3,5:4";
  const options = optionInputs(catalogue.options);
  const strategy = strategyPicker(catalogue.strategies);
  const heuristic = heuristicPicker(catalogue.heuristics);
  const limits = limitInputs({seconds: "5"});
  const counts = h("div", {id: "counts"});
  const heading = h("h3");
  const jugs = h("div", {class: "jugs", id: "jugs"});
  const where = h("span", {class: "position", id: "step"});
  const moves = h("ol", {class: "jug-moves", id: "moves", start: "1"});
  const player = h("div", {class: "row player"},
    h("button", {type: "button", text: "⇤", id: "first", title: "start", onclick: () => go(0)}),
    h("button", {type: "button", text: "◀", id: "back", title: "one move back", onclick: () => go(shown.step - 1)}),
    h("button", {type: "button", text: "▶|", id: "next", title: "one move", onclick: () => go(shown.step + 1)}),
    h("button", {type: "button", text: "⇥", id: "last", title: "the last move", onclick: () => go(Infinity)}));
  const shown = {result: null, step: 0};
  const view = h("section", {class: "view"}, counts, heading, jugs, player, where, moves);
  // a failed solve: its message by the input it is about (or the button) and over the view
  const errors = errorDisplay(view, {hasResult: () => shown.result !== null});
  const button = h("button", {type: "button", class: "primary", id: "solve", text: "Solve"});

  const go = (step) => {
    const r = shown.result;
    if (!r) return;
    shown.step = Math.max(0, Math.min(r.states.length - 1, step));
    const capacities = r.jugs.capacities;
    const scale = TALLEST / Math.max(...capacities, 1);
    const contents = contentsOf(r.states[shown.step]);
    const goal = r.found && shown.step === r.states.length - 1;
    jugs.dataset.state = r.states[shown.step];
    jugs.classList.toggle("goal", goal);
    jugs.replaceChildren(...capacities.map((capacity, i) => {
      const water = h("div", {class: "water"});
      water.style.height = `${contents[i] * scale}px`;
      const jug = h("div", {class: "jug", dataset: {jug: NAMES[i], amount: contents[i], capacity}}, water);
      jug.style.height = `${capacity * scale}px`;
      return h("figure", {class: "jug-box"}, jug,
        h("figcaption", {text: `${NAMES[i]}: ${contents[i]} of ${capacity}`}));
    }));
    const last = r.states.length - 1;
    where.textContent = `move ${shown.step} of ${last}` +
      (shown.step ? ` (${r.actions[shown.step - 1]})` : "") + (goal ? ": the target is measured" : "");
    for (const li of moves.children) li.classList.toggle("current", Number(li.dataset.step) === shown.step);
  };

  const solve = async () => {
    errors.clear();
    const body = {puzzle: puzzle.value, options: options.values(), limits: limits.values()};
    if (strategy.value) body.strategy = strategy.value;
    const spec = heuristic.spec();
    if (spec) body.heuristic = spec;
    try {
      const answer = await api(`kinds/${encodeURIComponent(catalogue.kind)}/solve`, body);
      const r = answer.result;
      const label = answer.choice ? answer.choice.label : r.strategy;
      const notes = [...(answer.choice?.notes || []), ...(answer.advice ? [answer.advice] : [])];
      counts.replaceChildren(statsTable([[label, r]]),
        notes.length ? h("ul", {class: "notes"}, notes.map((n) => h("li", {text: n}))) : "");
      shown.result = r;
      heading.textContent = r.found ? `Solution: ${count(r.length)} moves` : `No solution found (${r.stopped})`;
      moves.replaceChildren(...r.actions.map((action, i) =>
        h("li", {text: action, dataset: {step: i + 1}, onclick: () => go(i + 1)})));
      player.hidden = !r.found;
      root.dataset.solved = r.found ? "yes" : "no";
      go(0);
    } catch (error) {
      errors.show(error, {control: button, fields: {puzzle, options: options.element,
        ...options.fields(), strategy, ...heuristic.fields(), ...limits.fields()}});
    }
  };
  button.addEventListener("click", solve);

  root.replaceChildren(
    h("aside", {class: "controls"},
      h("h2", {text: "Water jugs"}),
      h("p", {class: "hint", text: `${catalogue.description} (plugin ${catalogue.plugin})`}),
      field("puzzle", puzzle, "CAPACITIES:TARGET: 3,5:4 is jugs of 3 and 5 litres, measure 4"),
      options.element,
      h("h3", {text: "Search"}),
      field("strategy", strategy), heuristic.element, limits.element,
      button),
    view);
  await solve();
}
