// The page of any puzzle kind, made from what the kind registered and nothing else: a state
// box (with the kind's example), its options, its generators if it has any, the strategies
// and heuristics that apply, limits; the result drawn with the kind's own renderer, the path,
// the search tree, and the result's JSON.

import {api, count, drawTree, errorDisplay, field, h, heuristicPicker, limitInputs, optionInputs,
  paintText, select, statsTable, stepPlayer, strategyPicker, treeScroll} from "./ui.js";

const TREE_NODES = 300;
const STEPS = 200;

export async function genericPage(root, catalogue) {
  const kind = catalogue.kind;
  const puzzle = h("textarea", {name: "puzzle", rows: "6", spellcheck: false});
  puzzle.value = catalogue.example || "";
  const options = optionInputs(catalogue.options);
  const strategy = strategyPicker(catalogue.strategies);
  const heuristic = heuristicPicker(catalogue.heuristics);
  const limits = limitInputs({seconds: "5"});
  const tree = h("input", {type: "checkbox", name: "tree", checked: true});
  const stepping = h("input", {type: "checkbox", name: "steps"});
  const formats = catalogue.formats.filter((f) => f !== "text");
  const picture = select([["text", "text"], ...formats.map((f) => [f, f]), ["", "none"]],
    formats.includes("svg") ? "svg" : catalogue.formats.length ? "text" : "", {name: "picture"});
  const output = h("div", {id: "output"});
  const view = h("section", {class: "view"}, output);
  const errors = errorDisplay(view);
  const solveButton = h("button", {type: "button", class: "primary", id: "solve", text: "Solve"});

  let generatorBox = "";
  if (catalogue.generators.length) {
    const generators = catalogue.generators;
    const algorithm = select(generators.map((g) => [g.name, g.name]), generators[0].name, {name: "algorithm"});
    const size = h("input", {type: "text", name: "size", placeholder: "ROWSxCOLS (or the generator's own)"});
    const seed = h("input", {type: "number", min: "0", step: "1", placeholder: "random", name: "seed"});
    const optionsBox = h("div");
    let generatorOptions = null;
    const show = () => {
      const chosen = generators.find((g) => g.name === algorithm.value);
      generatorOptions = optionInputs(chosen.options, {ranges: chosen.metadata.option_ranges || {}});
      optionsBox.replaceChildren(h("p", {class: "hint", text: chosen.description}), generatorOptions.element);
    };
    algorithm.addEventListener("change", show);
    show();
    const button = h("button", {type: "button", id: "generate", text: "Generate"});
    const generate = async () => {
      errors.clear();
      const body = {algorithm: algorithm.value, options: generatorOptions.values()};
      if (size.value.trim()) body.size = size.value.trim();
      if (seed.value !== "") body.seed = Number(seed.value);
      try {
        const made = await api(`kinds/${kind}/generate`, body);
        if (made.text === null && made.state === null) throw new Error("this generator's instances have no text form");
        puzzle.value = made.text ?? made.state;
        seed.placeholder = `random (last: ${made.seed})`;
      } catch (error) {
        errors.show(error, {control: button, fields: {algorithm, size, seed,
          options: generatorOptions.element, ...generatorOptions.fields()}});
      }
    };
    button.addEventListener("click", generate);
    generatorBox = h("details", {}, h("summary", {text: "Generate one"}),
      field("generator", algorithm), optionsBox, field("size", size), field("seed", seed), button);
  }

  const solve = async () => {
    errors.clear();
    const body = {puzzle: puzzle.value, options: options.values(), limits: limits.values(),
      trace: tree.checked || stepping.checked ? TREE_NODES : 0};
    if (stepping.checked) body.steps = STEPS;
    if (strategy.value) body.strategy = strategy.value;
    const spec = heuristic.spec();
    if (spec) body.heuristic = spec;
    if (picture.value) body.picture = picture.value;
    try {
      const answer = await api(`kinds/${kind}/solve`, body);
      root.dataset.solved = answer.result.found ? "yes" : "no";
      show(answer);
    } catch (error) {
      errors.show(error, {control: solveButton, fields: {puzzle, options: options.element,
        ...options.fields(), strategy, ...heuristic.fields(), ...limits.fields(), trace: tree,
        steps: stepping, picture}});
    }
  };
  solveButton.addEventListener("click", solve);

  const show = (answer) => {
    const r = answer.result;
    const label = answer.choice ? answer.choice.label : r.strategy;
    const parts = [statsTable([[label, r]])];
    const notes = [...(answer.choice?.notes || []), ...(answer.advice ? [answer.advice] : [])];
    if (notes.length) parts.push(h("ul", {class: "notes"}, notes.map((n) => h("li", {text: n}))));
    if (answer.picture) {
      const p = answer.picture;
      if (p.format === "text") parts.push(h("pre", {class: "picture", id: "picture", text: p.data}));
      else {
        const type = p.format === "svg" ? "image/svg+xml" : `image/${p.format}`;
        const src = p.base64 ? `data:${type};base64,${p.data}` : `data:${type};charset=utf-8,${encodeURIComponent(p.data)}`;
        parts.push(h("img", {class: "picture", id: "picture", src, alt: `the ${kind} puzzle, drawn by its plugin`}));
      }
    }
    if (r.found) {
      parts.push(h("h3", {text: `Path: ${count(r.length)} moves`}),
        h("ol", {class: "path", start: "0"}, r.states.slice(0, 500).map((s, i) =>
          h("li", {}, h("code", {text: s}), i ? h("span", {class: "hint", text: `  ← ${r.actions[i - 1]}`}) : ""))));
    }
    if (answer.steps) {
      parts.push(stepPlayer(answer, {paint: paintText, width: 110, height: 36, maxNodes: TREE_NODES}));
    } else if (answer.trace) {
      const t = answer.trace;
      parts.push(t.truncated || t.nodes.length > TREE_NODES
        ? h("p", {class: "hint", text: `The search tree has more than ${TREE_NODES} nodes: too many to draw.`})
        : h("figure", {class: "tree-figure"},
          h("figcaption", {text: `Search tree: ${count(t.nodes.length)} nodes numbered in expansion order; the path to the goal is thick.`}),
          treeScroll(drawTree(t, {paint: paintText, width: 110, height: 36}))));
    }
    parts.push(h("details", {}, h("summary", {text: "The result as JSON (docs/results.md)"}),
      h("pre", {class: "json", text: JSON.stringify(r, null, 1)})));
    output.replaceChildren(...parts);
  };

  root.replaceChildren(
    h("aside", {class: "controls"},
      h("h2", {text: kind}),
      h("p", {class: "hint", text: `${catalogue.description} (plugin ${catalogue.plugin})`}),
      field("puzzle", puzzle), options.element, generatorBox,
      h("h3", {text: "Search"}),
      field("strategy", strategy), heuristic.element, limits.element,
      catalogue.formats.length ? field("picture", picture) : "",
      h("label", {class: "check"}, tree, " record the search tree"),
      h("label", {class: "check"}, stepping, " step by step (the open and closed lists)"),
      solveButton),
    view);
  if (puzzle.value) await solve();
}
